"""The few statements whose spelling differs between SQLite and MySQL/MariaDB."""

from __future__ import annotations

import functools
from typing import Any, cast

from sqlalchemy import CursorResult, Table, insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert

from storage.database import Session

MYSQL_DUPLICATE_KEY = 1062


async def insert_unless_exists(
    session: Session, table: Table, values: dict[str, Any]
) -> int | None:
    """Insert a row unless one with the same unique key exists.

    Returns the new row's `id`, or None when the key was already there.

    SQLite: `INSERT ... ON CONFLICT DO NOTHING RETURNING id`, one statement, which
    skips uniqueness clashes only. MySQL/MariaDB: a plain INSERT inside a savepoint,
    and a duplicate-key error (1062) means "already there". Not `INSERT IGNORE`: that
    would also swallow truncation, foreign-key and NOT NULL errors. A concurrent
    insert of the same key waits for the other transaction and then reports the
    duplicate, which is the deduplication we want.
    """
    if session.dialect.name == "sqlite":
        stmt = _sqlite_insert_unless_exists(table)
        new_id: int | None = (await session.execute(stmt, values)).scalar_one_or_none()
        return new_id
    try:
        async with session.begin_nested():
            return await insert_returning_id(session, insert_into(table), values)
    except IntegrityError as exc:
        if mysql_errno(exc) == MYSQL_DUPLICATE_KEY:
            return None
        raise


def mysql_errno(exc: IntegrityError) -> int | None:
    """The MySQL/MariaDB error number behind a driver error, if there is one."""
    args = getattr(exc.orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


@functools.cache
def insert_into(table: Table) -> Insert:
    """A reusable INSERT for `table`; values come as parameters at execution.

    Building statements once per table (not once per call) keeps SQLAlchemy's
    statement construction and cache-key work off the per-message path.
    """
    return insert(table)


@functools.cache
def _sqlite_insert_unless_exists(table: Table) -> Insert:
    return sqlite.insert(table).on_conflict_do_nothing().returning(table.c.id)


async def insert_returning_id(
    session: Session, stmt: Insert, values: dict[str, Any] | None = None
) -> int:
    """Execute a single-row INSERT and return the new row's integer primary key."""
    result = cast(CursorResult[Any], await session.execute(stmt, values))
    (row_id,) = result.inserted_primary_key or (None,)
    if row_id is None:
        raise RuntimeError("the database returned no primary key")
    return int(row_id)
