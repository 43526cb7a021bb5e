"""The 今天 page's reads, in one statement.

The page shows the last weight, today's water and spending, the open tasks due today
or before, today's events and the weight goal: six reads, six round trips to MariaDB
when each was its own query. Here they are one `UNION ALL`: a first row of figures
(each a scalar subquery, so the row is there whatever the user has recorded), then a
row per due task and per event. Each branch fills its own columns and leaves the
others NULL, so every column keeps one type; the first branch's typed NULLs tell
SQLAlchemy how to read each column on both engines. The rows are put in order here,
in Python: a `UNION`'s branches carry no order of their own.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    Date,
    Integer,
    Row,
    String,
    Text,
    Time,
    bindparam,
    func,
    literal,
    null,
    select,
    type_coerce,
    union_all,
)
from sqlalchemy.types import TypeEngine

from storage.database import Session
from storage.models import EVENTS, LEDGER, MEASUREMENTS, TASKS, USERS, Hundredths, UTCDateTime
from storage.records import WeightPoint
from storage.repos.reads import WATER_TOTAL
from storage.vocabulary import EventStatus, LedgerDirection, MeasurementKind, TaskStatus


@dataclass(frozen=True, kw_only=True, slots=True)
class DueTask:
    number: int | None
    title: str
    due_date: dt.date
    due_time: dt.time | None


@dataclass(frozen=True, kw_only=True, slots=True)
class DayEvent:
    title: str
    starts_at: dt.datetime | None
    ends_at: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class TodayReads:
    """What the 今天 page shows, as read."""

    latest_weight: WeightPoint | None
    water: int
    spent: Decimal
    goal_weight: Decimal | None
    open_tasks: int
    due_tasks: list[DueTask]  # due today or overdue: by date, time (untimed last), number
    events: list[DayEvent]  # all-day first, then by start


async def today(
    session: Session, user_id: int, *, day: dt.date, start: dt.datetime, end: dt.datetime
) -> TodayReads:
    """The page's reads for the local `day`, whose instants are [start, end)."""
    params = {"user_id": user_id, "day": day, "start": start, "end": end}
    rows = (await session.execute(_TODAY, params)).all()
    figures = next(r for r in rows if r.part == "figures")
    tasks = [r for r in rows if r.part == "task"]
    tasks.sort(key=_task_order)
    events = [r for r in rows if r.part == "event"]
    events.sort(key=lambda r: (r.starts_at is not None, r.starts_at or start, r.seq))
    return TodayReads(
        latest_weight=_weight(figures),
        water=max(0, int(figures.water)),
        spent=figures.spent,
        goal_weight=figures.goal_weight,
        open_tasks=int(figures.open_tasks),
        due_tasks=[
            DueTask(number=r.number, title=r.title, due_date=r.due_date, due_time=r.due_time)
            for r in tasks
        ],
        events=[DayEvent(title=r.title, starts_at=r.starts_at, ends_at=r.ends_at) for r in events],
    )


def _task_order(r: Row[Any]) -> tuple[Any, ...]:
    """As `tasks.open_tasks` orders them: by date, then time (untimed last), then number
    (a task without one first, as SQL sorts NULL)."""
    return (
        r.due_date,
        r.due_time is None,
        r.due_time or dt.time(),
        r.number is not None,
        r.number or 0,
    )


def _weight(figures: Row[Any]) -> WeightPoint | None:
    if figures.weight is None:
        return None
    return WeightPoint(value=figures.weight, occurred_at=figures.weight_at)


def _latest_weight(column: Any) -> Any:
    return (
        select(column)
        .where(
            MEASUREMENTS.c.user_id == bindparam("user_id"),
            MEASUREMENTS.c.kind == MeasurementKind.WEIGHT,
        )
        .order_by(MEASUREMENTS.c.occurred_at.desc(), MEASUREMENTS.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )


_SPENT = select(func.coalesce(func.sum(LEDGER.c.amount), 0)).where(
    LEDGER.c.user_id == bindparam("user_id"),
    LEDGER.c.direction == LedgerDirection.EXPENSE,
    LEDGER.c.occurred_at >= bindparam("start"),
    LEDGER.c.occurred_at < bindparam("end"),
)
_OPEN = select(func.count()).where(
    TASKS.c.user_id == bindparam("user_id"), TASKS.c.status == TaskStatus.OPEN
)
_GOAL = select(USERS.c.goal_weight).where(USERS.c.id == bindparam("user_id"))


def _columns(**given: Any) -> list[Any]:
    """One branch's select list: the given columns, typed NULL for the rest."""
    typed: dict[str, TypeEngine[Any]] = {
        "part": String(),
        "seq": Integer(),
        "number": Integer(),
        "title": Text(),
        "due_date": Date(),
        "due_time": Time(),
        "starts_at": UTCDateTime(),
        "ends_at": UTCDateTime(),
        "weight": Hundredths(),
        "weight_at": UTCDateTime(),
        "water": Integer(),
        "spent": Hundredths(),
        "goal_weight": Hundredths(),
        "open_tasks": Integer(),
    }
    return [type_coerce(given.get(name, null()), kind).label(name) for name, kind in typed.items()]


_TODAY = union_all(
    select(
        *_columns(
            part=literal("figures"),
            weight=_latest_weight(MEASUREMENTS.c.value),
            weight_at=_latest_weight(MEASUREMENTS.c.occurred_at),
            water=WATER_TOTAL.scalar_subquery(),
            spent=_SPENT.scalar_subquery(),
            goal_weight=_GOAL.scalar_subquery(),
            open_tasks=_OPEN.scalar_subquery(),
        )
    ),
    select(
        *_columns(
            part=literal("task"),
            seq=TASKS.c.id,
            number=TASKS.c.number,
            title=TASKS.c.title,
            due_date=TASKS.c.due_date,
            due_time=TASKS.c.due_time,
        )
    ).where(
        TASKS.c.user_id == bindparam("user_id"),
        TASKS.c.status == TaskStatus.OPEN,
        TASKS.c.due_date <= bindparam("day"),
    ),
    select(
        *_columns(
            part=literal("event"),
            seq=EVENTS.c.id,
            title=EVENTS.c.title,
            starts_at=EVENTS.c.starts_at,
            ends_at=EVENTS.c.ends_at,
        )
    ).where(
        EVENTS.c.user_id == bindparam("user_id"),
        EVENTS.c.day == bindparam("day"),
        EVENTS.c.status == EventStatus.SCHEDULED,
    ),
)
