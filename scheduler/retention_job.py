"""The daily retention run: the scheduler prunes what only serves a while, in bounded
batches, a few per tick. What may go is `scheduler.core.retention_policy`.

A tick calls `RetentionDuty.step`. When the day's slot (`RUN_AT`, local) has passed,
the scheduler opens the day's run (`retention_runs`: one row per table, made once
however many schedulers race for it) and takes the rows it may work on. Then each
tick it prunes up to `BATCHES_PER_TICK` batches of at most `BATCH_ROWS` rows, each
batch its own short transaction: pre-select candidates after a cursor, keep those the
policy accepts, delete them (counting jobs and attempts first), and add the number to
the table's row in the same transaction. A table is done when a batch finds fewer
candidates than it asked for. So a big backlog (the first run after an upgrade) is
worked off over several ticks and never holds a lock for long, and sends go on
between batches.

Decisions:
- The cutoff is the slot minus the period, fixed when the day's rows are made, so
  every scheduler working on the day prunes to the same instant.
- A scheduler renews its hold every tick; one that stops (a `keeper tick` from cron
  exits after one pass, a crash) leaves its rows to the next scheduler after `LEASE`,
  and the cursor starts again from the first row (the rows already pruned are gone,
  so that costs one scan). A new slot is not looked at while a run is in hand: the
  next day's run starts when this one is done.
- Costs no query while idle: the slot last looked at is kept in memory (as the daily
  backup does, `scheduler.backup_job`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from scheduler.clock import Clock
from scheduler.core.backup_schedule import latest_slot, run_day
from scheduler.core.retention_policy import (
    PRUNABLE_STATUSES,
    RUN_AT,
    Family,
    JobFacts,
    Periods,
    cutoff,
    job_prunable,
    link_prunable,
    message_prunable,
)
from storage.database import Database, Session
from storage.repos import retention, retention_runs
from storage.retry import retrying

log = logging.getLogger(__name__)

BATCH_ROWS = 1_000
"""Rows pre-selected (and at most deleted) per transaction."""
BATCHES_PER_TICK = 5
"""Measured on MariaDB with 60,000 finished jobs on the shared 2-core machine under
load: 0.5-0.8 s per batch of 1,000 jobs with their attempts (locks held for under
half of it), so a tick spends a few seconds at most while a backlog lasts."""
LEASE = dt.timedelta(minutes=5)
"""A run row not renewed for this long is taken over by the next scheduler."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Pass:
    """One table's pruning: its period, and the tables whose run rows it adds to (the
    jobs pass deletes their attempts too)."""

    table: str
    family: Family
    also: tuple[str, ...] = ()


PASSES = (
    Pass(table="inbound_messages", family=Family.MESSAGES),
    Pass(table="notification_jobs", family=Family.JOBS, also=("delivery_attempts",)),
    Pass(table="web_links", family=Family.LINKS),
    Pass(table="mp_link_codes", family=Family.LINKS),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Batch:
    """One batch: candidates seen, the cursor after them, rows deleted (`also`: the
    jobs' attempts)."""

    seen: int
    last_id: int
    pruned: int
    also: int = 0


async def prune_batch(
    session: Session, table: str, *, before: dt.datetime, after_id: int, limit: int
) -> Batch:
    """Prune one batch of `table` (a `PASSES` table) in the caller's transaction."""
    if table == "inbound_messages":
        found = await retention.message_candidates(
            session, before=before, after_id=after_id, limit=limit
        )
        chosen = [m.id for m in found if message_prunable(m.received_at, before)]
        gone = await retention.delete_messages(session, chosen, before=before)
        return Batch(seen=len(found), last_id=_last((m.id for m in found), after_id), pruned=gone)
    if table == "notification_jobs":
        return await _prune_jobs(session, before=before, after_id=after_id, limit=limit)
    links = await retention.link_candidates(
        session, table, before=before, after_id=after_id, limit=limit
    )
    chosen = [r.id for r in links if link_prunable(r.expires_at, r.used_at, before)]
    gone = await retention.delete_links(session, table, chosen, before=before)
    return Batch(seen=len(links), last_id=_last((r.id for r in links), after_id), pruned=gone)


async def _prune_jobs(session: Session, *, before: dt.datetime, after_id: int, limit: int) -> Batch:
    found = await retention.job_candidates(
        session, statuses=PRUNABLE_STATUSES, before=before, after_id=after_id, limit=limit
    )
    chosen = [j.id for j in found if job_prunable(_facts(j), before)]
    gone = await retention.archive_and_delete_jobs(
        session, chosen, statuses=PRUNABLE_STATUSES, before=before
    )
    last_id = _last((j.id for j in found), after_id)
    return Batch(seen=len(found), last_id=last_id, pruned=gone.jobs, also=gone.attempts)


def _facts(job: retention.JobRow) -> JobFacts:
    return JobFacts(
        status=job.status,
        finished_at=job.finished_at,
        updated_at=job.updated_at,
        settled=job.settled,
        owner_missed_since=job.owner_missed_since,
    )


def _last(ids: Iterable[int], after_id: int) -> int:
    return max(ids, default=after_id)


@dataclass(frozen=True, kw_only=True, slots=True)
class RetentionPlan:
    """What the daily run needs, from the settings (built in `bot.scheduling`)."""

    periods: Periods
    zone: ZoneInfo
    at: dt.time = RUN_AT


@dataclass(kw_only=True, slots=True)
class _Work:
    """A pass this scheduler holds: its day's row, cutoff, and how far it got."""

    pass_: Pass
    day: dt.date
    before: dt.datetime
    after_id: int = 0
    pruned: int = 0


class RetentionDuty:
    """One scheduler process's part in the daily retention run (module docstring)."""

    def __init__(
        self, plan: RetentionPlan, *, batch: int = BATCH_ROWS, per_tick: int = BATCHES_PER_TICK
    ) -> None:
        self.plan, self.batch, self.per_tick = plan, batch, per_tick
        self._work: list[_Work] = []
        self._slot: dt.datetime | None = None  # the newest slot looked at
        self._look_again: dt.datetime | None = None  # others hold rows: take over after

    async def step(self, database: Database, clock: Clock, owner: str) -> int:
        """Open or take over the day's run when owed, then prune a few batches; the
        rows this tick deleted (jobs' attempts included)."""
        now = clock.now()
        if not self._work and (slot := self._owed(now)) is not None:
            await self._take(database, owner, now, slot)
        if not self._work:
            return 0
        await self._renew(database, owner, now)
        pruned = 0
        for _ in range(self.per_tick):
            if not self._work:
                break
            pruned += await self._one_batch(database, self._work[0], now)
        return pruned

    def _owed(self, now: dt.datetime) -> dt.datetime | None:
        """The slot whose run to open or take over now, if any: a new one, or the one in
        hand when others hold its rows and their lease may have run out."""
        slot = latest_slot(now, self.plan.at, self.plan.zone)
        if self._slot is None or slot > self._slot:
            return slot
        if self._look_again is not None and now >= self._look_again:
            return slot
        return None

    async def _take(
        self, database: Database, owner: str, now: dt.datetime, slot: dt.datetime
    ) -> None:
        """Open the slot's run (or take over its stale rows). Only once that has
        committed is the slot marked looked at: a failure is tried again next tick."""
        day = run_day(slot, self.plan.zone)
        planned = [
            retention_runs.Planned(
                table_name=name,
                keep_days=self.plan.periods.days(p.family),
                cutoff=cutoff(self.plan.periods.days(p.family), slot),
            )
            for p in PASSES
            for name in (p.table, *p.also)
        ]

        async def unit() -> tuple[list[retention_runs.RunRow], int]:
            async with database.transaction() as session:
                await retention_runs.open_day(
                    session, day=day, planned=planned, owner=owner, now=now
                )
                mine = await retention_runs.take(
                    session, day=day, owner=owner, now=now, stale_before=now - LEASE
                )
                return mine, await retention_runs.unfinished(session, day)

        mine, left = await retrying(unit)
        self._slot = slot
        held = {row.table_name: row for row in mine}
        self._work = [
            _Work(pass_=p, day=day, before=held[p.table].cutoff) for p in PASSES if p.table in held
        ]
        self._look_again = now + LEASE if left > len(mine) else None
        if self._work:
            log.info("retention run started", extra={"day": day.isoformat(), "owner": owner})

    async def _renew(self, database: Database, owner: str, now: dt.datetime) -> None:
        day = self._work[0].day
        tables = [name for w in self._work for name in (w.pass_.table, *w.pass_.also)]

        async def unit() -> set[str]:
            async with database.transaction() as session:
                return await retention_runs.renew(
                    session, day=day, owner=owner, tables=tables, now=now
                )

        held = await retrying(unit)
        self._work = [w for w in self._work if w.pass_.table in held]

    async def _one_batch(self, database: Database, work: _Work, now: dt.datetime) -> int:
        p = work.pass_

        async def unit() -> Batch:
            async with database.transaction() as session:
                batch = await prune_batch(
                    session, p.table, before=work.before, after_id=work.after_id, limit=self.batch
                )
                done = batch.seen < self.batch
                for name, count in ((p.table, batch.pruned), *((a, batch.also) for a in p.also)):
                    await retention_runs.add_pruned(
                        session, day=work.day, table_name=name, count=count, now=now, finished=done
                    )
                return batch

        batch = await retrying(unit)
        work.after_id, work.pruned = batch.last_id, work.pruned + batch.pruned
        if batch.seen < self.batch:
            self._work.remove(work)
            extra = {"table": p.table, "day": work.day.isoformat(), "pruned": work.pruned}
            log.info("retention pass done", extra=extra)
        return batch.pruned + batch.also
