"""A consistent, read-only view of a whole database, on either engine.

SQLite: the online backup API (`sqlite3.Connection.backup`, all pages in one step)
copies the file into a temporary one while holding a read transaction, so the copy
is one committed state even with writers running (WAL lets them go on meanwhile);
the copy is then read at leisure and deleted. The copy runs on a thread, so the
event loop (and any writer in this process) keeps going.

MariaDB/MySQL: one connection, REPEATABLE READ, `START TRANSACTION WITH CONSISTENT
SNAPSHOT, READ ONLY`: every SELECT of the backup sees the same committed state, and
nothing is locked. The engine's per-statement limit is lifted for this session
only (a backup reads for longer than a callback should ever take).

Rows are read in keyset pages (`id > last ORDER BY id LIMIT n`): bounded memory,
no server-side cursor, and the order the checksum needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.backup.codec import TableSpec
from storage.backup.errors import BackupError
from storage.engine import opened_engine

PAGE_ROWS = 5000

AfterTable = Callable[[str], Awaitable[None]]
"""Called after each table was read (tests use it to write in between)."""


class SourceError(BackupError):
    """The database to back up cannot be read as asked (never carries a password)."""


@contextlib.asynccontextmanager
async def consistent_snapshot(url: str) -> AsyncIterator[AsyncConnection]:
    """A connection on which every read sees one committed state of `url`'s database."""
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        async with _sqlite_copy(url) as connection:
            yield connection
    else:
        async with _mysql_snapshot(url) as connection:
            yield connection


@contextlib.asynccontextmanager
async def _sqlite_copy(url: str) -> AsyncIterator[AsyncConnection]:
    path = make_url(url).database
    if not path or path == ":memory:" or not is_file(path):
        raise SourceError(f"no SQLite database file at {path or '(none)'}")
    with tempfile.TemporaryDirectory(prefix="keeper-backup-") as scratch:
        copy = Path(scratch) / "snapshot.db"
        await asyncio.to_thread(_online_backup, Path(path), copy)
        async with (
            opened_engine(f"sqlite+aiosqlite:///{copy}") as engine,
            engine.connect() as connection,
        ):
            yield connection


def is_file(path: str | None) -> bool:
    """Whether `path` names an existing file (a stat: too quick to need a thread)."""
    return bool(path) and Path(str(path)).is_file()


def _online_backup(source: Path, target: Path) -> None:
    # Read-only URI: a missing file is an error, never a new empty database.
    src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)  # quoted path
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)  # pages=-1: the whole database in one step, one read transaction
    finally:
        dst.close()
        src.close()


@contextlib.asynccontextmanager
async def _mysql_snapshot(url: str) -> AsyncIterator[AsyncConnection]:
    async with opened_engine(url) as engine, engine.connect() as plain:
        # AUTOCOMMIT stops SQLAlchemy's own implicit transaction; the snapshot
        # transaction below is then the only one, and it is ours.
        connection = await plain.execution_options(isolation_level="AUTOCOMMIT")
        for statement in (
            "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
            "SET SESSION max_statement_time=0",
            "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY",
        ):
            await connection.exec_driver_sql(statement)
        try:
            yield connection
        finally:
            await connection.exec_driver_sql("COMMIT")


async def schema_revision(connection: AsyncConnection) -> str | None:
    """The Alembic revision the snapshot's database is at (None when unversioned)."""
    versioned = await connection.run_sync(lambda c: inspect(c).has_table("alembic_version"))
    if not versioned:
        return None
    result = await connection.execute(text("SELECT version_num FROM alembic_version"))
    revisions = [str(row[0]) for row in result]
    return revisions[0] if len(revisions) == 1 else None


async def read_pages(
    connection: AsyncConnection, spec: TableSpec
) -> AsyncIterator[Sequence[Sequence[Any]]]:
    """The table's rows in primary-key order, a page at a time."""
    table = spec.table()
    key, position = table.c.id, [name for name, _ in spec.columns].index("id")
    last: Any = None
    while True:
        query = select(table).order_by(key).limit(PAGE_ROWS)
        if last is not None:
            query = query.where(key > last)
        page = (await connection.execute(query)).all()
        if not page:
            return
        yield page
        last = page[-1][position]
