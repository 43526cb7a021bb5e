"""Facts the user records: weight, water, money, journal, calendar events.

Each `add_*` takes the message's `source_key`; the unique constraint on it means a
second insert for the same message fails loudly instead of recording twice.
`delete_record` is what `撤销` does to a fact.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import CursorResult, Table, delete

from storage.database import Session
from storage.dialect import insert_into, insert_returning_id
from storage.models import EVENTS, JOURNAL, LEDGER, MEASUREMENTS, WATER_CHECKINS
from storage.vocabulary import EffectKind, EventStatus, MeasurementKind

FACT_TABLES: dict[str, Table] = {
    EffectKind.WEIGHT: MEASUREMENTS,
    EffectKind.WATER: WATER_CHECKINS,
    EffectKind.LEDGER: LEDGER,
    EffectKind.JOURNAL: JOURNAL,
    EffectKind.EVENT: EVENTS,
}
"""Effect kind -> the table its record lives in (tasks are handled in `tasks`)."""


async def _insert(session: Session, table: Table, **values: object) -> int:
    return await insert_returning_id(session, insert_into(table), values)


async def add_weight(
    session: Session, *, user_id: int, kg: Decimal, occurred_at: dt.datetime, source_key: str
) -> int:
    return await _insert(
        session,
        MEASUREMENTS,
        user_id=user_id,
        kind=MeasurementKind.WEIGHT,
        value=kg,
        occurred_at=occurred_at,
        source_key=source_key,
    )


async def add_water(
    session: Session, *, user_id: int, glasses: int, occurred_at: dt.datetime, source_key: str
) -> int:
    return await _insert(
        session,
        WATER_CHECKINS,
        user_id=user_id,
        glasses=glasses,
        occurred_at=occurred_at,
        source_key=source_key,
    )


async def add_ledger(
    session: Session,
    *,
    user_id: int,
    direction: str,
    amount: Decimal,
    category: str,
    note: str,
    occurred_at: dt.datetime,
    source_key: str,
) -> int:
    return await _insert(
        session,
        LEDGER,
        user_id=user_id,
        direction=direction,
        amount=amount,
        category=category,
        note=note,
        occurred_at=occurred_at,
        source_key=source_key,
    )


async def add_journal(
    session: Session, *, user_id: int, text: str, occurred_at: dt.datetime, source_key: str
) -> int:
    return await _insert(
        session,
        JOURNAL,
        user_id=user_id,
        text=text,
        occurred_at=occurred_at,
        source_key=source_key,
    )


async def add_event(
    session: Session,
    *,
    user_id: int,
    title: str,
    day: dt.date,
    starts_at: dt.datetime | None,
    ends_at: dt.datetime | None,
    remind_minutes_before: int | None,
    now: dt.datetime,
    source_key: str,
    number: int | None = None,
) -> int:
    return await _insert(
        session,
        EVENTS,
        user_id=user_id,
        title=title,
        day=day,
        starts_at=starts_at,
        ends_at=ends_at,
        remind_minutes_before=remind_minutes_before,
        number=number,
        status=EventStatus.SCHEDULED,
        created_at=now,
        source_key=source_key,
    )


async def delete_record(session: Session, *, kind: str, record_id: int, user_id: int) -> bool:
    """Delete one fact of this user. Returns False if it was already gone."""
    table = FACT_TABLES[kind]
    stmt = delete(table).where(table.c.id == record_id, table.c.user_id == user_id)
    result = cast(CursorResult[Any], await session.execute(stmt))
    return bool(result.rowcount)
