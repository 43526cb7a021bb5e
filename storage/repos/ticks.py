"""Scheduler heartbeats: when each process last finished a tick (for /healthz)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select, update

from storage.database import Session
from storage.delivery_models import TICKS
from storage.dialect import insert_unless_exists


async def heartbeat(session: Session, *, worker: str, at: dt.datetime, duration_ms: int) -> None:
    """Record that `worker` finished a tick (what /healthz reports)."""
    values = {"worker": worker, "last_tick_at": at, "last_duration_ms": duration_ms}
    changed = await session.execute(update(TICKS).where(TICKS.c.worker == worker).values(values))
    if not changed.rowcount:
        await insert_unless_exists(session, TICKS, values)


async def last_tick(session: Session) -> dt.datetime | None:
    """The most recent tick of any scheduler process."""
    latest: dt.datetime | None = (
        await session.execute(select(func.max(TICKS.c.last_tick_at)))
    ).scalar_one_or_none()
    return latest


async def last_tick_of_real_schedulers(
    session: Session, *, since: dt.datetime, test_prefix: str
) -> tuple[str, dt.datetime] | None:
    """The newest tick at or after `since` by a process whose name lacks `test_prefix`.

    `keeper tick --at` names itself with that prefix, so what is left are the worker,
    `keeper serve` with the scheduler on, and plain `keeper tick`: real schedulers.
    """
    row = (
        await session.execute(
            select(TICKS.c.worker, TICKS.c.last_tick_at)
            .where(TICKS.c.last_tick_at >= since, ~TICKS.c.worker.startswith(test_prefix))
            .order_by(TICKS.c.last_tick_at.desc())
            .limit(1)
        )
    ).first()
    return None if row is None else (str(row.worker), row.last_tick_at)
