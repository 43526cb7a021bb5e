"""Read models for a span of days (the year page, `今年`): plain rows, one query each.

Like `storage.repos.reads`, no aggregation happens here: sums per day and per month
are pure code (`handlers.year`), tested as tables. Instants are half-open
[start, end); event days are the local dates [first_day, last_day]. The journal is
read as instants only: its text never leaves this module.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select

from storage.database import Session
from storage.models import EVENTS, JOURNAL, TASKS
from storage.records import LedgerRow, WeightPoint
from storage.repos import reads


@dataclass(frozen=True, kw_only=True, slots=True)
class SpanFacts:
    """What was recorded in a span, row by row."""

    weights: list[WeightPoint]
    water: list[tuple[dt.datetime, int]]
    ledger: list[LedgerRow]
    tasks_done: list[dt.datetime]
    events: list[tuple[dt.date, str]]
    journal: list[dt.datetime]


async def facts_between(
    session: Session,
    user_id: int,
    start: dt.datetime,
    end: dt.datetime,
    days: tuple[dt.date, dt.date],
) -> SpanFacts:
    """Every fact of the user in [start, end) (events: on the local `days`, inclusive)."""
    return SpanFacts(
        weights=await reads.weights_between(session, user_id, start, end),
        water=await reads.water_between(session, user_id, start, end),
        ledger=await reads.ledger_between(session, user_id, start, end),
        tasks_done=await _done_between(session, user_id, start, end),
        events=await _event_days(session, user_id, *days),
        journal=await _journal_times(session, user_id, start, end),
    )


async def _done_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[dt.datetime]:
    stmt = select(TASKS.c.closed_at).where(
        TASKS.c.user_id == user_id,
        TASKS.c.status == "done",
        TASKS.c.closed_at >= start,
        TASKS.c.closed_at < end,
    )
    return list((await session.execute(stmt)).scalars())


async def _event_days(
    session: Session, user_id: int, first: dt.date, last: dt.date
) -> list[tuple[dt.date, str]]:
    stmt = (
        select(EVENTS.c.day, EVENTS.c.title)
        .where(
            EVENTS.c.user_id == user_id,
            EVENTS.c.day >= first,
            EVENTS.c.day <= last,
            EVENTS.c.status != "cancelled",
        )
        .order_by(EVENTS.c.day, EVENTS.c.starts_at, EVENTS.c.id)
    )
    return [(r.day, r.title) for r in await session.execute(stmt)]


async def _journal_times(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[dt.datetime]:
    stmt = select(JOURNAL.c.occurred_at).where(
        JOURNAL.c.user_id == user_id,
        JOURNAL.c.occurred_at >= start,
        JOURNAL.c.occurred_at < end,
    )
    return list((await session.execute(stmt)).scalars())
