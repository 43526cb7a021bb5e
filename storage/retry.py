"""Retrying a whole transaction when the database asks for it.

MySQL/MariaDB abort one of two deadlocked transactions (errno 1213) or give up on a
lock wait (1205); SQLite reports "database is locked" after its busy timeout. All
three mean "nothing was written, try again", so the unit of work is re-run whole.

So does a connection lost under a statement (a server restarted, a pooled connection
dropped: SQLAlchemy marks the error `connection_invalidated` and retires the
connection). A unit of work is one transaction (see `retrying`), and its statements
all go before its COMMIT: lost under one of them, the COMMIT was never sent and the
server rolls back what the connection held. A connection lost at the COMMIT itself
(the error carries no statement) is never retried: the server may have committed,
and only the caller can say "maybe recorded". This replaced a ping before every
checkout (see `storage.engine`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRYABLE_MYSQL_CODES = {1205, 1213}
ATTEMPTS = 4
BACKOFF_SECONDS = 0.02
LOCKED_PATIENCE_SECONDS = 10.0
"""How long to keep retrying while another process holds SQLite's write lock. Each
try already waits `storage.inline_sqlite`'s short busy timeout on the loop; between
tries the loop is free. Deadlocks keep the small `ATTEMPTS` budget."""


def is_retryable(exc: BaseException) -> bool:
    """True for deadlocks, lock-wait timeouts and SQLite's busy errors.

    The error's context chain is searched too: when MySQL aborts a deadlocked
    transaction inside a savepoint, the savepoint is gone with it, and the error
    that surfaces is the failed `ROLLBACK TO SAVEPOINT` (1305), raised while
    handling the deadlock (1213) that is the real cause.
    """
    seen: BaseException | None = exc
    for _ in range(5):  # a short chain: the error, the rollback's error, ...
        if seen is None:
            return False
        if _retryable_itself(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _retryable_itself(exc: BaseException) -> bool:
    if not isinstance(exc, DBAPIError):
        return False
    if lost_before_commit(exc):
        return True
    orig = exc.orig
    args = getattr(orig, "args", ())
    if args and isinstance(args[0], int):
        return args[0] in RETRYABLE_MYSQL_CODES
    return isinstance(exc, OperationalError) and "database is locked" in str(orig)


def lost_before_commit(exc: DBAPIError) -> bool:
    """The connection dropped under a statement, so before its transaction's COMMIT.

    A failed COMMIT (or ROLLBACK, or connect) reaches us with no statement: SQLAlchemy
    raises those from the connection, not from a cursor.
    """
    return exc.connection_invalidated and exc.statement is not None


async def retrying(unit: Callable[[], Awaitable[T]], *, attempts: int = ATTEMPTS) -> T:
    """Run `unit` (which opens and commits its own one transaction), retrying on
    conflicts and lost connections.

    A deadlock, a lock-wait timeout or a connection lost before COMMIT is retried up
    to `attempts` times; SQLite's "database is locked" (another process is writing)
    for up to `LOCKED_PATIENCE_SECONDS` in all.
    """
    attempt, waited = 0, 0.0
    while True:
        attempt += 1
        try:
            return await unit()
        except DBAPIError as exc:
            if not is_retryable(exc):
                raise
            if lost_before_commit(exc):
                # The driver's own words (no statement, no parameters): which error it was.
                error = f"{type(exc.orig).__name__}: {exc.orig}"[:200]
                log.warning(
                    "database connection lost before COMMIT; running the unit again",
                    extra={"error": error, "attempt": attempt},
                )
            locked = _sqlite_locked(exc)
            if (locked and waited >= LOCKED_PATIENCE_SECONDS) or (
                not locked and attempt >= attempts
            ):
                raise
            pause = min(0.1, BACKOFF_SECONDS * attempt)
            waited += pause + (0.1 if locked else 0.0)  # each locked try also waited ~0.1 s
            await asyncio.sleep(pause)


def _sqlite_locked(exc: DBAPIError) -> bool:
    return isinstance(exc, OperationalError) and "database is locked" in str(exc.orig)
