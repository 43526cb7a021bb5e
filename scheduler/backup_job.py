"""The scheduled daily backup: one scheduler of several claims the day and makes it.

A tick calls `BackupDuty.step`. When the newest daily slot (`backup_schedule`) has
passed and this process has not yet looked at it, it tries to claim the slot's day
(`backups.claim_day`: a unique row, so exactly one scheduler wins). The winner runs
`make_and_verify` in a thread with an event loop of its own: verifying restores the
whole database into a scratch SQLite file, which is CPU-bound for minutes at millions
of rows, and the scheduler's loop must go on ticking and sending meanwhile. The
outcome is recorded on the claimed row; after a verified backup the directory is
pruned to the newest `keep` backups. The directory is created (mode 0700) when
missing: under systemd's DynamicUser only keeper's own user can make one in its state
directory.

A process that dies mid-backup leaves its row unfinished (shown as such); the next
day's slot is a new claim. Stopping the loop waits for a running backup (`wait`):
its thread cannot be cancelled, and an unfinished row would look like a crash.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from scheduler.clock import Clock
from scheduler.core.backup_schedule import latest_slot, run_day
from storage.backup import BackupOutcome, make_and_verify
from storage.backup.prune import prune
from storage.database import Database
from storage.repos import backups
from storage.retry import retrying

log = logging.getLogger(__name__)

MakeBackup = Callable[..., Coroutine[Any, Any, BackupOutcome]]
"""`make_and_verify`'s shape (a test passes one it can hold mid-way)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BackupPlan:
    """What the daily backup needs, from the settings (built in `bot.scheduling`)."""

    database_url: str = field(repr=False)  # may hold a password
    directory: Path
    key: str = field(repr=False)
    at: dt.time
    zone: ZoneInfo
    keep: int


class BackupDuty:
    """One scheduler process's part in the daily backup (see the module docstring)."""

    def __init__(self, plan: BackupPlan, *, make: MakeBackup = make_and_verify) -> None:
        self.plan, self._make_and_verify = plan, make
        self._looked_at: dt.datetime | None = None  # the newest slot already claimed or lost
        self._running: asyncio.Task[None] | None = None

    async def step(self, database: Database, clock: Clock, owner: str) -> bool:
        """Claim and start the owed backup, if any; True when this process started one.

        Costs no query until a new slot passes: the slot last looked at is kept.
        """
        if self._running is not None and not self._running.done():
            return False
        now = clock.now()
        slot = latest_slot(now, self.plan.at, self.plan.zone)
        if self._looked_at is not None and slot <= self._looked_at:
            return False
        day = run_day(slot, self.plan.zone)

        async def claim() -> int | None:
            async with database.transaction() as session:
                return await backups.claim_day(session, day=day, owner=owner, now=now)

        run_id = await retrying(claim)
        self._looked_at = slot
        if run_id is None:
            return False  # another scheduler got there first (or we did, before a restart)
        log.info("backup started", extra={"run": run_id, "day": day.isoformat()})
        self._running = asyncio.create_task(self._run(run_id, database, clock))
        return True

    async def wait(self) -> None:
        """Until the backup this process runs (if any) is made, verified and recorded."""
        if self._running is not None:
            await self._running

    async def _run(self, run_id: int, database: Database, clock: Clock) -> None:
        outcome = await self._make(clock)
        try:
            await _record(database, run_id, outcome)
            if outcome.verified and outcome.path is not None:
                gone = await asyncio.to_thread(
                    prune, self.plan.directory, self.plan.keep, outcome.path.name
                )
                if gone:
                    log.info("old backups deleted", extra={"files": ",".join(gone)})
        except Exception:
            log.exception("the backup's outcome could not be recorded", extra={"run": run_id})

    async def _make(self, clock: Clock) -> BackupOutcome:
        plan = self.plan
        started = clock.now()
        try:
            await asyncio.to_thread(plan.directory.mkdir, mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            problem = f"cannot create the directory {plan.directory}: {exc.strerror}"
            return _failed(started, clock.now(), problem)
        work = self._make_and_verify(plan.database_url, plan.directory, plan.key, now=clock.now)
        try:
            # Its own event loop in its own thread: this loop keeps ticking meanwhile.
            return await asyncio.to_thread(asyncio.run, work)
        except Exception as exc:  # make_and_verify raises only for what it did not foresee
            log.exception("backup failed unexpectedly")
            return _failed(started, clock.now(), f"{type(exc).__name__} (details in the log)")


async def _record(database: Database, run_id: int, outcome: BackupOutcome) -> None:
    async def unit() -> None:
        async with database.transaction() as session:
            await backups.finish(
                session,
                run_id,
                finished_at=outcome.finished_at,
                path=outcome.path.name if outcome.path else None,
                verified=outcome.verified,
                revision=outcome.revision,
                rows=outcome.rows,
                size_bytes=outcome.size_bytes,
                problem=outcome.problem,
            )

    await retrying(unit)
    extra = {"run": run_id, "rows": outcome.rows, "size_bytes": outcome.size_bytes}
    if outcome.verified:
        log.info("backup verified", extra=extra)
    else:
        log.error("backup failed", extra={**extra, "problem": outcome.problem[:200]})


def _failed(started: dt.datetime, finished: dt.datetime, problem: str) -> BackupOutcome:
    return BackupOutcome(
        path=None,
        started_at=started,
        finished_at=finished,
        verified=False,
        revision="",
        tables=0,
        rows=0,
        size_bytes=0,
        problem=problem,
    )
