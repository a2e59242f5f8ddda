"""Does a JSON value have the shape a type describes? (`conforms`)

    from bots.sdk.observations import conforms, moonrollers
    problems = conforms(observation, moonrollers.Observation)   # [] when it fits

The types are the ones this package uses for observations and actions: a `TypedDict`
(every required key present, `NotRequired` ones optional, no other key), `list[X]`,
`dict[K, V]`, `Literal[...]`, unions (`X | None` included), `int`, `float`, `bool`,
`str`, `None` and `object` (anything). JSON makes no tuples, so a type naming one is
refused with a TypeError rather than guessed at.
"""

import functools
import types
import typing
from collections.abc import Callable
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
)

MAX_PROBLEMS = 20

# A check returns the problems of one value, each "<path below it>: <what is wrong>";
# paths are put together on the way back up, so a value that conforms builds no string.
Check = Callable[[object], list[str]]


def conforms(value: object, expected: Any, where: str = "value") -> list[str]:
    """The ways `value` departs from the type `expected` (empty when it conforms).

    Each problem names its place, e.g. `value['turn']['pool']['wild']: expected int, got
    str '2'`. At most MAX_PROBLEMS are listed.
    """
    return [where + problem for problem in _compile(expected)(value)[:MAX_PROBLEMS]]


@functools.cache
def _compile(expected: Any) -> Check:
    """The check for a type, made once per type (reading a type is slow; checking is not)."""
    if expected is Any or expected is object:
        return lambda value: []
    if expected is None or expected is type(None):
        return lambda value: [] if value is None else [_wrong("null", value)]
    if expected in (int, str, bool):
        # Exact types: bool is an int in Python, and True is no count.
        return lambda value: [] if type(value) is expected else [_wrong(expected.__name__, value)]
    if expected is float:
        return lambda value: [] if type(value) in (int, float) else [_wrong("float", value)]
    if typing.is_typeddict(expected):
        return _typed_dict(expected)
    origin, args = get_origin(expected), get_args(expected)
    if origin is Literal:
        return _literal(args)
    if origin is Union or origin is types.UnionType:
        return _union(args)
    if origin is list:
        return _list(_compile(args[0]))
    if origin is dict:
        return _dict(_compile(args[0]), _compile(args[1]))
    raise TypeError(f"conforms cannot check against {expected!r}")


def _literal(choices: tuple[Any, ...]) -> Check:
    # Compare types too, so True never passes for 1.
    allowed = {(type(c), c) for c in choices}

    def check(value: object) -> list[str]:
        if isinstance(value, str | int) and (type(value), value) in allowed:
            return []
        return [f": expected one of {list(choices)!r}, got {_show(value)}"]

    return check


def _union(alternatives: tuple[Any, ...]) -> Check:
    checks = [_compile(a) for a in alternatives]
    of_objects = any(typing.is_typeddict(a) for a in alternatives)
    names = " | ".join(_name(a) for a in alternatives)

    def check(value: object) -> list[str]:
        best: list[str] | None = None
        for alternative in checks:
            problems = alternative(value)
            if not problems:
                return []
            if best is None or len(problems) < len(best):
                best = problems
        if of_objects and isinstance(value, dict) and best:
            # An object near one of several object types: the problems of the closest
            # say more than "none of these".
            return best
        return [f": expected {names}, got {_show(value)}"]

    return check


def _list(item: Check) -> Check:
    def check(value: object) -> list[str]:
        if not isinstance(value, list):
            return [_wrong("a list", value)]
        problems: list[str] = []
        for index, element in enumerate(value):
            found = item(element)
            if found:
                problems += [f"[{index}]{p}" for p in found]
                if len(problems) >= MAX_PROBLEMS:
                    break
        return problems

    return check


def _dict(key_check: Check, value_check: Check) -> Check:
    def check(value: object) -> list[str]:
        if not isinstance(value, dict):
            return [_wrong("an object", value)]
        problems = []
        for key, element in value.items():
            problems += [f" key {key!r}{p}" for p in key_check(key)]
            problems += [f"[{key!r}]{p}" for p in value_check(element)]
        return problems

    return check


def _typed_dict(expected: Any) -> Check:
    hints = typing.get_type_hints(expected, include_extras=True)
    # __required_keys__ misses NotRequired[...] written as a string (`from __future__
    # import annotations`) before Python 3.12, so the wrappers are read here as well.
    required = set(expected.__required_keys__)
    fields: dict[str, Check] = {}
    for key, hint in hints.items():
        while get_origin(hint) in (NotRequired, Required, Annotated):
            if get_origin(hint) is NotRequired:
                required.discard(key)
            elif get_origin(hint) is Required:
                required.add(key)
            hint = get_args(hint)[0]
        fields[key] = _compile(hint)
    what = f"an object ({expected.__name__})"

    def check(value: object) -> list[str]:
        if not isinstance(value, dict):
            return [_wrong(what, value)]
        problems = []
        if not required <= value.keys():
            problems += [f": missing key {k!r}" for k in sorted(required - value.keys())]
        for key, element in value.items():
            field = fields.get(key)
            if field is None:
                problems.append(f": unexpected key {key!r}")
            else:
                found = field(element)
                if found:
                    problems += [f"[{key!r}]{p}" for p in found]
        return problems

    return check


def _name(tp: Any) -> str:
    if tp is None or tp is type(None):
        return "null"
    if get_origin(tp) is not None:
        return repr(tp).replace("typing.", "")
    return str(getattr(tp, "__name__", tp))


def _wrong(expected: str, value: object) -> str:
    return f": expected {expected}, got {_show(value)}"


def _show(value: object) -> str:
    if value is None:
        return "null"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"
