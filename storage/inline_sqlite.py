"""SQLite statements run inline on the event loop, behind aiosqlite's interface.

Why: aiosqlite runs every call on a helper thread, and SQLAlchemy's adapter makes
three or four such calls per statement (cursor, execute, fetch, close). Measured on
the 2-core benchmark machine, that hand-off cost about 160 us of CPU per statement,
while the statement itself took 6 us: half of keeper's CPU per message went to
waking a thread. SQLite's own calls are short (microseconds; a WAL commit's fsync
about 0.3 ms), so running them inline is cheaper than the hop.

What keeps the loop responsive: one pooled connection per process (see
`storage.engine`), so in-process writers queue as coroutines and never wait on the
file lock; and a short busy timeout for waits on other processes, after which the
"database is locked" error is retried asynchronously by `storage.retry`.

COMMIT is the exception: it runs on a helper thread, so the loop goes on decrypting
and handling other requests during the fsync. Under group commit
(`storage.group_commit`) that is one hop per batch, not per message, and the batch's
gate keeps every other use of the connection away until the commit has returned.

`connect()` returns an object with the parts of `aiosqlite.Connection` that
SQLAlchemy's `sqlite+aiosqlite` dialect uses; it is passed as `async_creator`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

INLINE_BUSY_TIMEOUT_S = 0.1


class _ImmediateQueue:
    """Stands in for aiosqlite's request queue: runs the request at once."""

    def put_nowait(self, item: tuple[asyncio.Future[Any], Callable[[], Any]]) -> None:
        future, function = item
        try:
            future.set_result(function())
        except Exception as exc:
            future.set_exception(exc)


class InlineCursor:
    """An awaitable facade over a `sqlite3.Cursor`."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> InlineCursor:
        self._cursor.execute(sql, parameters)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> InlineCursor:
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(size if size is not None else self._cursor.arraysize)

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value


class _CursorContext:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def __aenter__(self) -> InlineCursor:
        return InlineCursor(self._connection.cursor())

    async def __aexit__(self, *exc: object) -> None:
        return None


class InlineConnection:
    """The subset of `aiosqlite.Connection` that SQLAlchemy's adapter calls."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._conn: sqlite3.Connection | None = connection
        self._tx = _ImmediateQueue()

    @property
    def _connection(self) -> sqlite3.Connection | None:
        return self._conn

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError("Connection closed")
        return self._conn

    @property
    def isolation_level(self) -> str | None:
        return self._live().isolation_level

    def cursor(self) -> _CursorContext:
        return _CursorContext(self._live())

    async def commit(self) -> None:
        await asyncio.to_thread(self._live().commit)

    async def rollback(self) -> None:
        self._live().rollback()

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._live().create_function(*args, **kwargs)

    async def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def creator(path: str) -> Callable[[], Any]:
    """An `async_creator` for `create_async_engine` opening `path` inline."""

    async def connect() -> InlineConnection:
        return InlineConnection(
            sqlite3.connect(path, timeout=INLINE_BUSY_TIMEOUT_S, check_same_thread=False)
        )

    return connect
