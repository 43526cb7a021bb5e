"""The few statements whose spelling differs between SQLite and MySQL/MariaDB."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Table, insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.dml import Insert

MYSQL_DUPLICATE_KEY = 1062


async def insert_unless_exists(session: AsyncSession, table: Table, values: dict[str, Any]) -> bool:
    """Insert a row unless a row with the same unique key exists. True if inserted.

    SQLite: `INSERT ... ON CONFLICT DO NOTHING`, which skips uniqueness clashes only.
    MySQL/MariaDB: a plain INSERT inside a savepoint, and a duplicate-key error (1062)
    means "already there". Not `INSERT IGNORE`: that would also swallow truncation,
    foreign-key and NOT NULL errors. A concurrent insert of the same key waits for the
    other transaction and then reports the duplicate, which is the deduplication we want.
    """
    if session.get_bind().dialect.name == "sqlite":
        stmt = sqlite.insert(table).values(values).on_conflict_do_nothing()
        result = cast(CursorResult[Any], await session.execute(stmt))
        return bool(result.rowcount)
    try:
        async with session.begin_nested():
            await session.execute(insert(table).values(values))
    except IntegrityError as exc:
        if _mysql_errno(exc) == MYSQL_DUPLICATE_KEY:
            return False
        raise
    return True


def _mysql_errno(exc: IntegrityError) -> int | None:
    args = getattr(exc.orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


async def insert_returning_id(session: AsyncSession, stmt: Insert) -> int:
    """Execute a single-row INSERT and return the new row's integer primary key."""
    result = cast(CursorResult[Any], await session.execute(stmt))
    (row_id,) = result.inserted_primary_key or (None,)
    if row_id is None:
        raise RuntimeError("the database returned no primary key")
    return int(row_id)
