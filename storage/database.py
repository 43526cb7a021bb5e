"""`Database`: the engine, its session factory, and a fair gate for SQLite writers.

On SQLite every transaction is a write transaction (`BEGIN IMMEDIATE`) on the one
pooled connection, so at most one runs at a time anyway. Waiting for the pool is
not fair, though: a newly arrived request can take the connection ahead of one that
has waited for seconds (measured: p50 49 ms but max 8.5 s at concurrency 50). An
`asyncio.Lock` wakes waiters in arrival order, so the gate makes the queue FIFO.
MySQL/MariaDB run transactions concurrently and need no gate.

On SQLite the gate belongs to `storage.group_commit`: transactions that queue up
share one COMMIT (one fsync), each in its own savepoint, and none returns before
the COMMIT holding it has.

A caller that may stop waiting (the callback's deadline: a stalled database must not
hold WeCom past its 5 seconds) passes a `CommitWatch`, to learn afterwards whether the
COMMIT had been sent: before it, nothing was written; after it, the outcome is unknown
until the server answers. A transaction cancelled mid-way closes its connection
instead of rolling back over it (a ROLLBACK would wait on the stalled server too);
the server rolls back what a closed connection left open.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.group_commit import GroupCommit

Session = AsyncConnection
"""One unit of work: a Core connection inside one transaction, owned by the caller.

Not an ORM session on purpose: the repositories need nothing the ORM adds, and its
execution layer doubled the CPU cost of every statement on the per-message path.
"""


@dataclass
class CommitWatch:
    """Set just before COMMIT is sent, cleared when a transaction begins. Under group
    commit, set when the unit's work joins its batch: from then on its fate is the
    batch's COMMIT."""

    commit_sent: bool = False


class Database:
    """Hands out transactions; the caller's `async with` owns each one."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.group = GroupCommit(engine) if engine.dialect.name == "sqlite" else None

    @contextlib.asynccontextmanager
    async def transaction(self, watch: CommitWatch | None = None) -> AsyncIterator[Session]:
        """A transaction that commits on success and rolls back on error; cancelled,
        it closes its connection at once (see the module note)."""
        watch = watch or CommitWatch()
        watch.commit_sent = False
        if self.group is not None:
            async with self.group.unit(watch) as connection:
                yield connection
            return
        async with self.engine.connect() as connection:
            try:
                await connection.begin()
                yield connection
            except asyncio.CancelledError:
                await connection.invalidate()
                raise
            except BaseException:
                await connection.rollback()
                raise
            watch.commit_sent = True
            try:
                await connection.commit()
            except asyncio.CancelledError:
                await connection.invalidate()
                raise
