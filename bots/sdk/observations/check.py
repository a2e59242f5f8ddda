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


def conforms(value: object, expected: Any, where: str = "value") -> list[str]:
    """The ways `value` departs from the type `expected` (empty when it conforms).

    Each problem names its place, e.g. `value['turn']['pool']['wild']: expected int, got
    str '2'`. At most MAX_PROBLEMS are listed.
    """
    return [where + problem for problem in _check(value, expected)[:MAX_PROBLEMS]]


# A problem is "<path below the value checked>: <what is wrong>"; the path is put
# together on the way back up, so a value that conforms costs no string building.
def _check(value: object, expected: Any) -> list[str]:
    if expected is Any or expected is object:
        return []
    if expected is None or expected is type(None):
        return [] if value is None else [_wrong("null", value)]
    if expected is int or expected is str or expected is bool:
        return [] if type(value) is expected else [_wrong(expected.__name__, value)]
    if expected is float:
        return [] if type(value) in (int, float) else [_wrong("float", value)]
    if typing.is_typeddict(expected):
        return _check_typed_dict(value, expected)
    origin = get_origin(expected)
    if origin is Literal:
        choices = get_args(expected)
        # bool is an int in Python: compare types too so True never passes for 1.
        if any(value == c and type(value) is type(c) for c in choices):
            return []
        return [f": expected one of {list(choices)!r}, got {_show(value)}"]
    if origin is Union or origin is types.UnionType:
        return _check_union(value, get_args(expected))
    if origin is list:
        if not isinstance(value, list):
            return [_wrong("a list", value)]
        (item,) = get_args(expected)
        problems: list[str] = []
        for index, element in enumerate(value):
            problems += [f"[{index}]{p}" for p in _check(element, item)]
            if len(problems) >= MAX_PROBLEMS:
                break
        return problems
    if origin is dict:
        if not isinstance(value, dict):
            return [_wrong("an object", value)]
        key_type, value_type = get_args(expected)
        problems = []
        for key, element in value.items():
            problems += [f" key {key!r}{p}" for p in _check(key, key_type)]
            problems += [f"[{key!r}]{p}" for p in _check(element, value_type)]
        return problems
    raise TypeError(f"conforms cannot check against {expected!r}")


def _check_typed_dict(value: object, expected: Any) -> list[str]:
    if not isinstance(value, dict):
        return [_wrong(f"an object ({expected.__name__})", value)]
    hints, required = _fields(expected)
    problems = [f": missing key {k!r}" for k in sorted(required - value.keys())]
    problems += [f": unexpected key {k!r}" for k in sorted(value.keys() - hints.keys(), key=str)]
    for key, element in value.items():
        if key in hints:
            problems += [f"[{key!r}]{p}" for p in _check(element, hints[key])]
    return problems


@functools.cache
def _fields(typed_dict: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's value type per key, and its required keys."""
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    # __required_keys__ misses NotRequired[...] written as a string (`from __future__
    # import annotations`) before Python 3.12, so the wrappers are read here as well.
    required = set(typed_dict.__required_keys__)
    for key, hint in hints.items():
        while get_origin(hint) in (NotRequired, Required, Annotated):
            if get_origin(hint) is NotRequired:
                required.discard(key)
            elif get_origin(hint) is Required:
                required.add(key)
            hint = get_args(hint)[0]
        hints[key] = hint
    return hints, frozenset(required)


def _check_union(value: object, alternatives: tuple[Any, ...]) -> list[str]:
    best: list[str] | None = None
    for alternative in alternatives:
        problems = _check(value, alternative)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    if isinstance(value, dict) and any(typing.is_typeddict(a) for a in alternatives):
        # An object near one of several object types: its own problems say more than
        # "none of these" (the fewest problems mark the alternative meant).
        return best or []
    names = " | ".join(_name(a) for a in alternatives)
    return [f": expected {names}, got {_show(value)}"]


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
