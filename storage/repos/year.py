"""Read models for a span of local days (the year page, `今年`).

Water and money are summed per local day (and money per month and category) in
SQL, so a page costs one row per day, not one per check-in: five years of records
stay cheap. The other facts are few (a weight a day at most) and come as rows.

A local day in SQL: the days are cut into runs whose local midnights share one UTC
offset (`offset_runs`; one run a year in Asia/Shanghai, about three where clocks
change), and inside a run the local date of an instant is DATE(instant + offset).
That is exact even on a day whose offset changes at 02:00, because every instant
between two local midnights belongs to the first one's date. The journal is read
as instants only: its text never leaves this module.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import BigInteger, ColumnElement, func, select, text, type_coerce

from storage.database import Session
from storage.models import EVENTS, JOURNAL, LEDGER, TASKS, WATER_CHECKINS
from storage.records import WeightPoint
from storage.repos import reads
from storage.vocabulary import EventStatus, LedgerDirection, TaskStatus

ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True, kw_only=True, slots=True)
class SpanFacts:
    """What was recorded on the local days of a span."""

    weights: list[WeightPoint]
    water: dict[dt.date, int]
    money: dict[dt.date, tuple[Decimal, Decimal]]
    """(spent, income) per local day."""
    by_month: list[tuple[dt.date, str, str, Decimal]]
    """(first day of the local month, direction, category, sum)."""
    tasks_done: list[dt.datetime]
    events: list[tuple[dt.date, str]]
    journal: list[dt.datetime]


def midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tz).astimezone(dt.UTC)


def offset_runs(
    first: dt.date, last: dt.date, tz: ZoneInfo
) -> list[tuple[dt.datetime, dt.datetime, int]]:
    """[start, end) UTC instants covering local days first..last, cut where the UTC
    offset of local midnight changes; each with that offset in seconds."""
    runs: list[tuple[dt.datetime, dt.datetime, int]] = []
    day = first
    while day <= last:
        offset = _offset(day, tz)
        end = day + ONE_DAY
        while end <= last and _offset(end, tz) == offset:
            end += ONE_DAY
        runs.append((midnight(day, tz), midnight(end, tz), offset))
        day = end
    return runs


def _offset(day: dt.date, tz: ZoneInfo) -> int:
    offset = dt.datetime.combine(day, dt.time(), tz).utcoffset()
    return int(offset.total_seconds()) if offset else 0


def _local_date(session: Session, column: Any, offset: int) -> ColumnElement[Any]:
    if session.dialect.name == "sqlite":
        return func.date(column, f"{offset:+d} seconds")
    return func.date(func.timestampadd(text("SECOND"), offset, column))


def _as_date(value: Any) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


async def facts_between(
    session: Session, user_id: int, tz: ZoneInfo, first: dt.date, last: dt.date
) -> SpanFacts:
    """Every fact of the user on the local days first..last (inclusive)."""
    start, end = midnight(first, tz), midnight(last + ONE_DAY, tz)
    water: dict[dt.date, int] = {}
    money: dict[dt.date, tuple[Decimal, Decimal]] = {}
    months: dict[tuple[dt.date, str, str], Decimal] = {}
    for run in offset_runs(first, last, tz):
        for day, glasses in await _water(session, user_id, run):
            water[day] = water.get(day, 0) + glasses
        for day, direction, category, cents in await _ledger(session, user_id, run):
            spent, income = money.get(day, (Decimal("0.00"), Decimal("0.00")))
            amount = Decimal(cents) / 100
            money[day] = (
                (spent + amount, income)
                if direction == LedgerDirection.EXPENSE
                else (spent, income + amount)
            )
            key = (day.replace(day=1), direction, category)
            months[key] = months.get(key, Decimal("0.00")) + amount
    return SpanFacts(
        weights=await reads.weights_between(session, user_id, start, end),
        water=water,
        money=money,
        by_month=[
            (m, d, c, v.quantize(Decimal("0.01"))) for (m, d, c), v in sorted(months.items())
        ],
        tasks_done=await _done_between(session, user_id, start, end),
        events=await _event_days(session, user_id, first, last),
        journal=await _journal_times(session, user_id, start, end),
    )


async def _water(
    session: Session, user_id: int, run: tuple[dt.datetime, dt.datetime, int]
) -> list[tuple[dt.date, int]]:
    start, end, offset = run
    day = _local_date(session, WATER_CHECKINS.c.occurred_at, offset)
    stmt = (
        select(day, func.sum(WATER_CHECKINS.c.glasses))
        .where(
            WATER_CHECKINS.c.user_id == user_id,
            WATER_CHECKINS.c.occurred_at >= start,
            WATER_CHECKINS.c.occurred_at < end,
        )
        .group_by(day)
    )
    return [(_as_date(d), int(n)) for d, n in await session.execute(stmt)]


async def _ledger(
    session: Session, user_id: int, run: tuple[dt.datetime, dt.datetime, int]
) -> list[tuple[dt.date, str, str, int]]:
    """Sums in hundredths (the stored integers) per local day, direction and category."""
    start, end, offset = run
    day = _local_date(session, LEDGER.c.occurred_at, offset)
    raw = type_coerce(LEDGER.c.amount, BigInteger)  # the stored hundredths, summed exactly
    stmt = (
        select(day, LEDGER.c.direction, LEDGER.c.category, func.sum(raw))
        .where(
            LEDGER.c.user_id == user_id, LEDGER.c.occurred_at >= start, LEDGER.c.occurred_at < end
        )
        .group_by(day, LEDGER.c.direction, LEDGER.c.category)
    )
    return [(_as_date(d), str(w), str(c), int(n)) for d, w, c, n in await session.execute(stmt)]


async def _done_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[dt.datetime]:
    stmt = select(TASKS.c.closed_at).where(
        TASKS.c.user_id == user_id,
        TASKS.c.status == TaskStatus.DONE,
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
            EVENTS.c.status != EventStatus.CANCELLED,
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
