"""Model instances from written-out SQL, for the few queries on every match's path.

Building a query with the ORM costs about a millisecond of CPU; on the match path
(claim, lock, record) that was a tenth of the pipeline's own cost per match. These
helpers keep the written-out queries short and still hand back the models'
instances, with the unread fields deferred and each value converted as the ORM
would (JSON decoded, SQLite's UUID strings made UUIDs).

On PostgreSQL the same queries also cost the database less and wait less: they run
as prepared statements (`prepared_cursor`) and travel in psycopg's pipeline mode
(`pipelined`), 4 round trips per match in all.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from django.db import connection, connections, models

M = TypeVar("M", bound=models.Model)


def columns(model: type[models.Model], names: Iterable[str]) -> list[str]:
    """The named columns in the model's own field order, which `Model.from_db` expects."""
    wanted = set(names)
    found = [f.attname for f in model._meta.concrete_fields if f.attname in wanted]
    if len(found) != len(wanted):
        raise ValueError(f"{model.__name__} has no column(s) {sorted(wanted - set(found))}")
    return found


def select_list(names: Sequence[str], alias: str) -> str:
    return ", ".join(f"{alias}.{connection.ops.quote_name(name)}" for name in names)


def instance(model: type[M], names: Sequence[str], values: Sequence[Any]) -> M:
    """A model instance from one row's values for `names` (in `columns` order)."""
    if len(values) != len(names):
        raise ValueError(f"{len(values)} values for {len(names)} columns of {model.__name__}")
    # The connection itself, looked up once: each attribute of Django's proxy is a
    # thread-local lookup, and per column they were a third of this function's time.
    own = connections[connection.alias]
    converted = list(values)
    for index, converters in _row_converters(own.vendor, model, tuple(names)):
        value = converted[index]
        if value is not None:
            for convert, column in converters:
                value = convert(value, column, own)
            converted[index] = value
    return model.from_db(own.alias, list(names), converted)


_CONVERTERS: dict[tuple[str, type[models.Model], tuple[str, ...]], list[tuple[int, Any]]] = {}


def _row_converters(
    vendor: str, model: type[models.Model], names: tuple[str, ...]
) -> list[tuple[int, list[tuple[Any, Any]]]]:
    """For each column that has any, its place and its converters (as the ORM applies)."""
    key = (vendor, model, names)
    found = _CONVERTERS.get(key)
    if found is None:
        found = []
        for index, name in enumerate(names):
            field = next(f for f in model._meta.concrete_fields if f.attname == name)
            column = field.get_col(model._meta.db_table)
            every = [
                *connection.ops.get_db_converters(column),
                *field.get_db_converters(connection),
            ]
            if every:
                found.append((index, [(convert, column) for convert in every]))
        _CONVERTERS[key] = found
    return found


def prepared_cursor() -> Any:
    """A cursor whose statements PostgreSQL parses and plans once per connection.

    Django's cursors bind parameters in the client, and such cursors never prepare
    (psycopg's ClientCursor): the server parses and plans every statement anew. For the
    few statements on every match's path (read, claim, locks, write) that was ~1 ms of
    the database's CPU per match, on the cores the bots use. This cursor binds on the
    server and prepares each statement the first time it runs (with a generic plan:
    arena/settings.py). Elsewhere: a plain cursor.
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    cursor = _preparing_cursor_class()(connection.connection)
    # As connection.cursor() wraps its cursors (the debug wrapper logs queries).
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


@functools.cache
def _preparing_cursor_class() -> type:
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):  # type: ignore[misc,valid-type]
        """Prepares every statement it runs, whatever the connection's threshold."""

        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            kwargs.setdefault("prepare", True)
            return super().execute(query, params, **kwargs)

    return PreparingCursor


def for_update(of: str) -> str:
    """`FOR UPDATE [OF table]` where the database locks rows; nothing on SQLite.

    SQLite takes no row locks: its writers are serialised by the database lock.
    """
    features = connection.features
    if features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE" if features.has_select_for_update else ""


@contextlib.contextmanager
def pipelined(enabled: bool = True) -> Iterator[Callable[[], None]]:
    """Send statements without waiting for each reply, where the driver can (PostgreSQL).

    In psycopg's pipeline mode a statement whose rows are not read yet costs no round
    trip of its own: BEGIN and the statements before a read travel together, and so do
    the last writes and the COMMIT when a transaction is opened inside this block.
    Errors still surface (as Django's database errors) at the next read or at the end.

    Yields `sync()`, which waits for every reply so far. Call it before code that reads
    a row count (the ORM's `update()`, `save(update_fields=...)`): in the pipeline a
    count is not known until its reply is in.
    """
    if not enabled or connection.vendor != "postgresql":
        yield _nothing_to_sync
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline() as pipeline:
        yield pipeline.sync


def _nothing_to_sync() -> None:
    return None
