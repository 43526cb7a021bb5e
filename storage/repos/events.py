"""Calendar events: short numbers, lookup, moving and cancelling.

An event's number is the smallest free one among the user's upcoming scheduled
events (today or later), so numbers stay short and a past event's number is reused.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select, update

from storage.database import Session
from storage.models import EVENTS
from storage.records import EventRecord
from storage.repos.numbers import smallest_free
from storage.repos.reads import event_record
from storage.vocabulary import EventStatus


def _upcoming(user_id: int, today: dt.date) -> tuple[Any, ...]:
    return (
        EVENTS.c.user_id == user_id,
        EVENTS.c.status == EventStatus.SCHEDULED,
        EVENTS.c.day >= today,
    )


async def free_number(session: Session, user_id: int, today: dt.date) -> int:
    stmt = select(EVENTS.c.number).where(*_upcoming(user_id, today), EVENTS.c.number.is_not(None))
    return smallest_free((await session.execute(stmt)).scalars())


async def upcoming(session: Session, user_id: int, today: dt.date) -> list[EventRecord]:
    """Scheduled events from `today` on, soonest first."""
    stmt = (
        select(EVENTS)
        .where(*_upcoming(user_id, today))
        .order_by(EVENTS.c.day, EVENTS.c.starts_at.is_not(None), EVENTS.c.starts_at, EVENTS.c.id)
    )
    return [event_record(r) for r in await session.execute(stmt)]


async def count_between(session: Session, user_id: int, first: dt.date, last: dt.date) -> int:
    """Scheduled events on the local days `first` to `last`, both included."""
    stmt = select(func.count()).where(
        EVENTS.c.user_id == user_id,
        EVENTS.c.status == EventStatus.SCHEDULED,
        EVENTS.c.day >= first,
        EVENTS.c.day <= last,
    )
    return int((await session.execute(stmt)).scalar_one())


async def by_number(
    session: Session, user_id: int, number: int, today: dt.date
) -> EventRecord | None:
    stmt = select(EVENTS).where(*_upcoming(user_id, today), EVENTS.c.number == number)
    row = (await session.execute(stmt.order_by(EVENTS.c.id.desc()))).first()
    return None if row is None else event_record(row)


async def get(session: Session, event_id: int) -> EventRecord | None:
    row = (await session.execute(select(EVENTS).where(EVENTS.c.id == event_id))).first()
    return None if row is None else event_record(row)


async def change(session: Session, event_id: int, user_id: int, **values: Any) -> None:
    """Update `title`, `day`, `starts_at`, `ends_at`, `remind_minutes_before` or `status`."""
    stmt = update(EVENTS).where(EVENTS.c.id == event_id, EVENTS.c.user_id == user_id)
    await session.execute(stmt.values(**values))
