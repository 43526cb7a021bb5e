"""Engine and session factory for the two supported engines.

SQLite (the aiosqlite dialect, statements run inline: see `storage.inline_sqlite`)
is the embedded default: WAL so readers never block the writer, foreign keys on,
one pooled connection per process, a short busy timeout after which a locked
database is retried asynchronously (another process is writing), and every
transaction opened with `BEGIN IMMEDIATE`. The last point matters: with the
default deferred `BEGIN`, a transaction that reads and then writes can fail at once
with SQLITE_BUSY when another connection wrote in between, and the busy timeout does
not help; taking the write lock up front makes writers queue politely instead.

MySQL/MariaDB (asyncmy by default, or aiomysql) is the production engine: utf8mb4,
READ COMMITTED (at the default REPEATABLE READ, concurrent claimers deadlocked in our
own trial). No ping before every checkout (SQLAlchemy's `pool_pre_ping`): on a busy
server it was one round trip in six or seven per message. A connection is pinged
only when it comes out of the pool after `IDLE_PING_S` unused, where a server restart
or a middlebox may have dropped it; a failed ping replaces every pooled connection
older than it. A connection lost under a busy load is caught instead by
`storage.retry`: a unit of work whose connection dropped before its COMMIT was sent
is run again on a new one (never one whose COMMIT was sent: its outcome is unknown).

Bounded time on MySQL/MariaDB: a connect gives up after `MYSQL_CONNECT_TIMEOUT_S`, a
lock wait after `MYSQL_LOCK_WAIT_S` (error 1205, retried by `storage.retry`), and on
MariaDB a statement after `MARIADB_STATEMENT_TIMEOUT_S` (`max_statement_time`; MySQL's
`max_execution_time` covers SELECTs only and is left alone). No read timeout is set:
a server that stops answering mid-statement is bounded by the caller's deadline (the
callback's, see `bot.callback`), whose cancellation closes the connection
(`storage.database`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    create_async_engine,
)
from sqlalchemy.pool import PoolResetState

from storage import inline_sqlite

SQLITE_BUSY_TIMEOUT_MS = int(inline_sqlite.INLINE_BUSY_TIMEOUT_S * 1000)
SQLITE_POOL_TIMEOUT_S = 30
MYSQL_CONNECT_TIMEOUT_S = 5
MYSQL_LOCK_WAIT_S = 10
MARIADB_STATEMENT_TIMEOUT_S = 60
# asyncmy logs each server warning a statement raises (it asks SHOW WARNINGS) at WARNING
# level: only DDL notes here ("Name 'pk_users' ignored for PRIMARY key", from the
# migrations), since strict SQL mode turns data problems into errors; and a warning's
# text may quote a value. Errors still reach keeper as exceptions.
logging.getLogger("asyncmy").setLevel(logging.ERROR)
IDLE_PING_S = 30.0
"""A pooled MySQL/MariaDB connection unused for this long is pinged before it is used."""
# Refuse what MySQL would otherwise silently truncate or coerce: a too-long string must
# fail as loudly as a unique-key clash, whatever the server's own default mode is.
STRICT_SQL_MODE = "STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"


MYSQL_DRIVERS = ("asyncmy", "aiomysql")
"""The asyncio MySQL/MariaDB drivers keeper runs on, the default first (a URL naming no
driver, `mysql://` or `mariadb://`, gets it). Both pass the same fault and race tests;
asyncmy's protocol is compiled, aiomysql's pure Python (bench/README.md, "Callbacks")."""


def with_driver(url: str) -> str:
    """`url` with the default driver named when it names none (`mysql://...` ->
    `mysql+asyncmy://...`); any other URL unchanged, character for character."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme in ("mysql", "mariadb"):
        return f"{scheme}+{MYSQL_DRIVERS[0]}://{rest}"
    return url


def create_engine(url: str, *, echo: bool = False) -> AsyncEngine:
    """Create an `AsyncEngine` for `url`, tuned for its backend."""
    url = with_driver(url)
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(url, echo=echo)
    if backend in ("mysql", "mariadb"):
        return _mysql_engine(url, echo=echo)
    raise ValueError(f"unsupported database backend: {backend}")


@asynccontextmanager
async def opened_engine(url: str) -> AsyncIterator[AsyncEngine]:
    """An engine for one command's work (`keeper migrate`, doctor, export, restore),
    disposed however the work ends, so no pooled connection outlives the command."""
    engine = create_engine(url)
    try:
        yield engine
    finally:
        await engine.dispose()


def _sqlite_engine(url: str, *, echo: bool) -> AsyncEngine:
    path = make_url(url).database or ":memory:"
    engine = create_async_engine(
        url,
        echo=echo,
        hide_parameters=True,  # an error's text never carries a UserID or a message
        async_creator=inline_sqlite.creator(path),
        # One connection per process: SQLite has one writer anyway, and coroutines
        # queueing for the pool wake in order, whereas connections queueing on the
        # file lock poll with sleeps (measured: p99 3 s with 15 connections, 0.8 s
        # with one). Other processes still wait on the lock via the busy timeout.
        pool_size=1,
        max_overflow=0,
        pool_timeout=SQLITE_POOL_TIMEOUT_S,
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(
            f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}"
        )  # blocks the loop: keep short
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _mysql_engine(url: str, *, echo: bool) -> AsyncEngine:
    parsed = make_url(url)
    query = dict(parsed.query)
    query.setdefault("charset", "utf8mb4")
    session = f"sql_mode='{STRICT_SQL_MODE}', innodb_lock_wait_timeout={MYSQL_LOCK_WAIT_S}"
    engine = create_async_engine(
        parsed.set(query=query),
        echo=echo,
        hide_parameters=True,  # an error's text never carries a UserID or a message
        connect_args={
            "init_command": f"SET SESSION {session}",
            "connect_timeout": MYSQL_CONNECT_TIMEOUT_S,
        },
        isolation_level="READ COMMITTED",
        pool_recycle=3600,
        pool_reset_on_return=None,  # see _reset below
    )

    @event.listens_for(engine.sync_engine, "reset")
    def _reset(dbapi_connection: Any, _record: Any, state: PoolResetState) -> None:
        # The pool's usual reset sends ROLLBACK whenever a connection comes back: after
        # our COMMIT that is one wasted round trip per message. The server's status flag
        # (SERVER_STATUS_IN_TRANS, kept by the driver from the last reply) says whether
        # anything is still open; only then is it rolled back.
        usable = state.asyncio_safe and not state.terminate_only
        if usable and dbapi_connection._connection.get_transaction_status():
            dbapi_connection.rollback()

    @event.listens_for(engine.sync_engine, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")  # None: new, just connected
        if idle_since is None or time.monotonic() - idle_since < IDLE_PING_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            # The pool connects anew, and retires every connection older than this one.
            raise InvalidatePoolError("a pooled connection was lost while idle") from exc

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("SELECT VERSION()")
        (version,) = cursor.fetchone()
        if "mariadb" in str(version).lower():
            cursor.execute(f"SET SESSION max_statement_time={MARIADB_STATEMENT_TIMEOUT_S}")
        cursor.close()

    return engine
