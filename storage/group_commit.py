"""Group commit for SQLite: units of work that queue up share one transaction.

Why: on SQLite each transaction ends in a WAL commit whose fsync (`synchronous=FULL`,
kept so that an acknowledged record survives a power cut) costs 0.3 ms on a quiet
disk and several milliseconds on a busy one, and it is paid on the event loop once
per message. Here the units that arrive while one is running or committing share the
next transaction, so a burst of messages pays for one fsync.

How it stays honest:

- Each unit that joins an open batch runs inside its own SAVEPOINT: an error rolls
  back that unit's work only and reaches only its caller; the batch goes on. The unit
  that opens a batch needs none: until it is done it is alone in the transaction,
  and its failure rolls the whole (empty) batch back.
- A unit's `async with` ends only when the COMMIT holding its work has returned, so
  nothing built on it (a passive reply) leaves before that work is durable.
- Once a unit's savepoint is released into the batch, its fate is no longer its own:
  its `CommitWatch` says the COMMIT was sent (the "maybe recorded" answer of a
  caller that stops waiting), and a failed COMMIT fails every member.
- The gate is a FIFO `asyncio.Lock`. The committer queues on it behind the units
  already waiting, which thereby join the batch; units arriving later queue behind
  the committer and form the next one. While the COMMIT runs, the committer holds the
  gate, so no other coroutine touches the connection (the driver may run the commit
  on a helper thread, see `storage.inline_sqlite`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

# Savepoints as cached textual statements: SQLAlchemy's begin_nested() compiles its
# SAVEPOINT clause afresh each time (it is not cacheable), measured at 240 us of CPU per
# savepoint and release against about 85 us for one cached statement. One name will
# do: a unit's savepoint is released or rolled back before the next unit starts.
SAVEPOINT = text("SAVEPOINT keeper_unit")
RELEASE = text("RELEASE SAVEPOINT keeper_unit")
ROLLBACK_TO = text("ROLLBACK TO SAVEPOINT keeper_unit")


async def _roll_back_unit(connection: AsyncConnection) -> None:
    await connection.execute(ROLLBACK_TO)
    await connection.execute(RELEASE)


class Watch(Protocol):
    commit_sent: bool


@dataclass(eq=False)
class _Batch:
    """One open transaction and what rides on it."""

    connection: AsyncConnection
    durable: asyncio.Future[None]
    members: int = 0
    committer: asyncio.Task[None] | None = field(default=None, repr=False)


class GroupCommit:
    """Hands out savepoints of a shared transaction; commits each batch once."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.commits = 0  # batches committed (for tests and curious operators)
        self.members_committed = 0  # units made durable by those commits
        self._gate = asyncio.Lock()
        self._batch: _Batch | None = None
        self._committers: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def unit(self, watch: Watch) -> AsyncIterator[AsyncConnection]:
        """One unit of work; on a clean exit its work is committed and durable."""
        async with self._gate:
            opener = self._batch is None
            batch = await self._open_batch()
            connection = batch.connection
            # The unit that opens a batch is alone in it until it is done, so its
            # failure may roll back the whole transaction: no savepoint needed.
            if not opener:
                await connection.execute(SAVEPOINT)
            try:
                yield connection
            except BaseException as exc:
                if opener:
                    self._batch = None
                    await self._end(batch, exc)
                else:
                    await self._savepoint_step(batch, _roll_back_unit(connection))
                    self._start_committer(batch)  # never leave the write lock held idle
                raise
            if not opener:  # RELEASE: the unit's work is now part of the batch
                await self._savepoint_step(batch, connection.execute(RELEASE))
            watch.commit_sent = True
            batch.members += 1
            self._start_committer(batch)
        # Shielded: a caller that stops waiting leaves the batch to commit anyway.
        await asyncio.shield(batch.durable)

    async def _open_batch(self) -> _Batch:
        if self._batch is not None:
            return self._batch
        connection = await self.engine.connect()
        try:
            await connection.begin()  # BEGIN IMMEDIATE (see storage.engine)
        except BaseException:
            await connection.close()
            raise
        self._batch = _Batch(connection, asyncio.get_running_loop().create_future())
        return self._batch

    async def _savepoint_step(self, batch: _Batch, step: Awaitable[object]) -> None:
        """Run a savepoint step; if it fails the transaction is in doubt: end the batch."""
        try:
            await step
        except BaseException as exc:
            self._batch = None
            await self._end(batch, exc)
            raise

    def _start_committer(self, batch: _Batch) -> None:
        if batch.committer is None:
            batch.committer = asyncio.create_task(self._commit(batch))
            self._committers.add(batch.committer)
            batch.committer.add_done_callback(self._committers.discard)

    async def _commit(self, batch: _Batch) -> None:
        async with self._gate:  # behind the units already waiting: they join this batch
            if self._batch is batch:
                self._batch = None  # whoever comes next opens the next batch
            if batch.durable.done():
                return  # a failed savepoint step already ended it
            try:
                await self._send_commit(batch.connection)
            except BaseException as exc:
                await self._end(batch, exc)
                return
            self.commits += 1
            self.members_committed += batch.members
            batch.durable.set_result(None)
            await batch.connection.close()

    async def _send_commit(self, connection: AsyncConnection) -> None:
        """COMMIT (a seam: tests hold it to catch a reply leaving early)."""
        await connection.commit()

    async def _end(self, batch: _Batch, exc: BaseException) -> None:
        """The batch failed: every member learns it; the connection is dropped, so
        SQLite rolls back whatever it held."""
        if not batch.durable.done():
            batch.durable.set_exception(exc)
            batch.durable.exception()  # retrieved: members may all have stopped waiting
        with contextlib.suppress(Exception):
            await batch.connection.invalidate()
            await batch.connection.close()

    async def drain(self) -> None:
        """Wait for the commits in flight (before the engine is disposed)."""
        while self._committers:
            await asyncio.wait(set(self._committers))
