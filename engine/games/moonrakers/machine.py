"""The op registry behind Moonrakers' stack machine.

The whole game runs as a stack of small steps ("ops"). An op is a tuple
`(name, seat, *args)`. Automatic ops run at once; choice ops wait for `seat`
to pick one of the options they compute. Modules register their ops here with
the decorators below, so rules for one phase live in one module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Op = tuple[Any, ...]
AUTO: dict[str, Callable[..., None]] = {}
OPTIONS: dict[str, Callable[..., list[Any]]] = {}
RESOLVE: dict[str, Callable[..., None]] = {}


def auto(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register `fn(state, seat, *args)` as an automatic op."""

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        AUTO[name] = fn
        return fn

    return register


def choice(
    name: str,
) -> Callable[[Callable[..., list[Any]]], Callable[..., list[Any]]]:
    """Register `options(state, op) -> list` for a choice op; pair it with `resolves`."""

    def register(fn: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
        OPTIONS[name] = fn
        return fn

    return register


def resolves(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register `resolve(state, op, action)` for the choice op `name`."""

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        RESOLVE[name] = fn
        return fn

    return register
