"""Retrying a whole transaction when the database asks for it.

MySQL/MariaDB abort one of two deadlocked transactions (errno 1213) or give up on a
lock wait (1205); SQLite reports "database is locked" after its busy timeout. All
three mean "nothing was written, try again", so the unit of work is re-run whole.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError

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
    orig = exc.orig
    args = getattr(orig, "args", ())
    if args and isinstance(args[0], int):
        return args[0] in RETRYABLE_MYSQL_CODES
    return isinstance(exc, OperationalError) and "database is locked" in str(orig)


async def retrying(unit: Callable[[], Awaitable[T]], *, attempts: int = ATTEMPTS) -> T:
    """Run `unit` (which opens and commits its own transaction), retrying on conflicts.

    A deadlock or lock-wait timeout is retried up to `attempts` times; SQLite's
    "database is locked" (another process is writing) for up to
    `LOCKED_PATIENCE_SECONDS` in all.
    """
    attempt, waited = 0, 0.0
    while True:
        attempt += 1
        try:
            return await unit()
        except DBAPIError as exc:
            if not is_retryable(exc):
                raise
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
