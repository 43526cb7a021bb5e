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
