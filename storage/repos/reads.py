"""Read models for the views (今天, 本周, 本月): plain rows in a time range.

Aggregation (sums per day, per category) happens in pure code in `handlers/`, so it
is tested as tables and the SQL stays obvious. Ranges are half-open [start, end).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, bindparam, func, select

from storage.database import Session
from storage.models import EVENTS, LEDGER, MEASUREMENTS, WATER_CHECKINS
from storage.records import EventRecord, LedgerRow, WeightPoint
from storage.vocabulary import EventStatus, MeasurementKind


async def latest_weight(session: Session, user_id: int) -> WeightPoint | None:
    row = (await session.execute(_LATEST_WEIGHT, {"user_id": user_id})).first()
    return None if row is None else WeightPoint(value=row.value, occurred_at=row.occurred_at)


# The statements read on every message of their kind are built once, with their values
# as parameters: building one per call cost more than running it (issue 11's profile).
_LATEST_WEIGHT = (
    select(MEASUREMENTS.c.value, MEASUREMENTS.c.occurred_at)
    .where(
        MEASUREMENTS.c.user_id == bindparam("user_id"),
        MEASUREMENTS.c.kind == MeasurementKind.WEIGHT,
    )
    .order_by(MEASUREMENTS.c.occurred_at.desc(), MEASUREMENTS.c.id.desc())
    .limit(1)
)


async def weights_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[WeightPoint]:
    stmt = (
        select(MEASUREMENTS.c.value, MEASUREMENTS.c.occurred_at)
        .where(
            MEASUREMENTS.c.user_id == user_id,
            MEASUREMENTS.c.kind == MeasurementKind.WEIGHT,
            MEASUREMENTS.c.occurred_at >= start,
            MEASUREMENTS.c.occurred_at < end,
        )
        .order_by(MEASUREMENTS.c.occurred_at, MEASUREMENTS.c.id)
    )
    return [
        WeightPoint(value=r.value, occurred_at=r.occurred_at) for r in await session.execute(stmt)
    ]


async def water_total(session: Session, user_id: int, start: dt.datetime, end: dt.datetime) -> int:
    params = {"user_id": user_id, "start": start, "end": end}
    return int((await session.execute(WATER_TOTAL, params)).scalar_one())


WATER_TOTAL = select(func.coalesce(func.sum(WATER_CHECKINS.c.glasses), 0)).where(
    WATER_CHECKINS.c.user_id == bindparam("user_id"),
    WATER_CHECKINS.c.occurred_at >= bindparam("start"),
    WATER_CHECKINS.c.occurred_at < bindparam("end"),
)


async def water_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[tuple[dt.datetime, int]]:
    stmt = select(WATER_CHECKINS.c.occurred_at, WATER_CHECKINS.c.glasses).where(
        WATER_CHECKINS.c.user_id == user_id,
        WATER_CHECKINS.c.occurred_at >= start,
        WATER_CHECKINS.c.occurred_at < end,
    )
    return [(r.occurred_at, r.glasses) for r in await session.execute(stmt)]


async def ledger_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[LedgerRow]:
    params = {"user_id": user_id, "start": start, "end": end}
    return [
        LedgerRow(
            direction=r.direction, amount=r.amount, category=r.category, occurred_at=r.occurred_at
        )
        for r in await session.execute(_LEDGER_BETWEEN, params)
    ]


_LEDGER_BETWEEN = select(
    LEDGER.c.direction, LEDGER.c.amount, LEDGER.c.category, LEDGER.c.occurred_at
).where(
    LEDGER.c.user_id == bindparam("user_id"),
    LEDGER.c.occurred_at >= bindparam("start"),
    LEDGER.c.occurred_at < bindparam("end"),
)


async def events_on(session: Session, user_id: int, day: dt.date) -> list[EventRecord]:
    """The user's scheduled (not cancelled) events on a local date, all-day ones first."""
    stmt = (
        select(EVENTS)
        .where(
            EVENTS.c.user_id == user_id,
            EVENTS.c.day == day,
            EVENTS.c.status == EventStatus.SCHEDULED,
        )
        .order_by(EVENTS.c.starts_at.is_not(None), EVENTS.c.starts_at, EVENTS.c.id)
    )
    return [event_record(e) for e in await session.execute(stmt)]


def event_record(row: Row[Any]) -> EventRecord:
    return EventRecord(
        id=row.id,
        title=row.title,
        day=row.day,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        status=row.status,
        number=row.number,
        remind_minutes_before=row.remind_minutes_before,
    )


async def weighed_since(session: Session, user_id: int, since: dt.datetime) -> bool:
    """Whether any weight was recorded at or after `since`."""
    stmt = select(MEASUREMENTS.c.id).where(
        MEASUREMENTS.c.user_id == user_id,
        MEASUREMENTS.c.kind == MeasurementKind.WEIGHT,
        MEASUREMENTS.c.occurred_at >= since,
    )
    return (await session.execute(stmt.limit(1))).first() is not None
