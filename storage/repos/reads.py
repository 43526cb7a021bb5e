"""Read models for the views (今天, 本周, 本月): plain rows in a time range.

Aggregation (sums per day, per category) happens in pure code in `handlers/`, so it
is tested as tables and the SQL stays obvious. Ranges are half-open [start, end).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import CalendarEvent, LedgerEntry, Measurement, WaterCheckin
from storage.records import EventRecord, LedgerRow, WeightPoint


async def latest_weight(session: AsyncSession, user_id: int) -> WeightPoint | None:
    stmt = (
        select(Measurement.value, Measurement.occurred_at)
        .where(Measurement.user_id == user_id, Measurement.kind == "weight")
        .order_by(Measurement.occurred_at.desc(), Measurement.id.desc())
        .limit(1)
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else WeightPoint(value=row.value, occurred_at=row.occurred_at)


async def weights_between(
    session: AsyncSession, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[WeightPoint]:
    stmt = (
        select(Measurement.value, Measurement.occurred_at)
        .where(
            Measurement.user_id == user_id,
            Measurement.kind == "weight",
            Measurement.occurred_at >= start,
            Measurement.occurred_at < end,
        )
        .order_by(Measurement.occurred_at, Measurement.id)
    )
    return [
        WeightPoint(value=r.value, occurred_at=r.occurred_at) for r in await session.execute(stmt)
    ]


async def water_total(
    session: AsyncSession, user_id: int, start: dt.datetime, end: dt.datetime
) -> int:
    stmt = select(func.coalesce(func.sum(WaterCheckin.glasses), 0)).where(
        WaterCheckin.user_id == user_id,
        WaterCheckin.occurred_at >= start,
        WaterCheckin.occurred_at < end,
    )
    return int((await session.execute(stmt)).scalar_one())


async def water_between(
    session: AsyncSession, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[tuple[dt.datetime, int]]:
    stmt = select(WaterCheckin.occurred_at, WaterCheckin.glasses).where(
        WaterCheckin.user_id == user_id,
        WaterCheckin.occurred_at >= start,
        WaterCheckin.occurred_at < end,
    )
    return [(r.occurred_at, r.glasses) for r in await session.execute(stmt)]


async def ledger_between(
    session: AsyncSession, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[LedgerRow]:
    stmt = select(
        LedgerEntry.direction, LedgerEntry.amount, LedgerEntry.category, LedgerEntry.occurred_at
    ).where(
        LedgerEntry.user_id == user_id,
        LedgerEntry.occurred_at >= start,
        LedgerEntry.occurred_at < end,
    )
    return [
        LedgerRow(
            direction=r.direction, amount=r.amount, category=r.category, occurred_at=r.occurred_at
        )
        for r in await session.execute(stmt)
    ]


async def events_on(session: AsyncSession, user_id: int, day: dt.date) -> list[EventRecord]:
    """The user's scheduled (not cancelled) events on a local date, all-day ones first."""
    stmt = (
        select(CalendarEvent)
        .where(
            CalendarEvent.user_id == user_id,
            CalendarEvent.day == day,
            CalendarEvent.status == "scheduled",
        )
        .order_by(CalendarEvent.starts_at.is_not(None), CalendarEvent.starts_at, CalendarEvent.id)
    )
    return [
        EventRecord(
            id=e.id,
            title=e.title,
            day=e.day,
            starts_at=e.starts_at,
            ends_at=e.ends_at,
            status=e.status,
        )
        for e in (await session.execute(stmt)).scalars()
    ]
