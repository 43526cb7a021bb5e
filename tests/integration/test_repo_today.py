"""The 今天 page's one-statement read (`storage.repos.today`), on every engine: the same
figures, rows and order the six separate reads gave."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.records import WeightPoint
from storage.repos import budgets, records, tasks
from storage.repos.today import DayEvent, DueTask, TodayReads, today
from storage.vocabulary import TaskStatus
from tests.integration.conftest import new_user

SHANGHAI = dt.timezone(dt.timedelta(hours=8))
DAY = dt.date(2026, 11, 25)
START = dt.datetime(2026, 11, 25, tzinfo=SHANGHAI)
END = START + dt.timedelta(days=1)


def _at(hour: int, minute: int = 0, *, day: int = 25) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=SHANGHAI)


async def _read(engine: AsyncEngine, user_id: int) -> TodayReads:
    async with engine.begin() as session:
        return await today(session, user_id, day=DAY, start=START, end=END)


async def test_a_member_with_nothing_recorded_reads_an_empty_page(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock)

    assert await _read(engine, user_id) == TodayReads(
        latest_weight=None,
        water=0,
        spent=Decimal("0.00"),
        goal_weight=None,
        open_tasks=0,
        due_tasks=[],
        events=[],
    )


async def test_the_page_reads_todays_figures_and_rows_in_order(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock)
    other = await new_user(engine, clock, "lisi")
    now = clock.now()
    async with engine.begin() as s:
        for kg, at, key in [("71.20", _at(8, day=24), "w1"), ("70.85", _at(7), "w2")]:
            await records.add_weight(
                s, user_id=user_id, kg=Decimal(kg), occurred_at=at, source_key=key
            )
        await records.add_weight(
            s, user_id=other, kg=Decimal("99"), occurred_at=_at(9), source_key="theirs"
        )
        water = [(2, _at(9), "g1"), (-1, _at(23, 59), "g2"), (5, _at(23, day=24), "g3")]
        for glasses, at, key in water:
            await records.add_water(
                s, user_id=user_id, glasses=glasses, occurred_at=at, source_key=key
            )
        money = [
            ("expense", "35.50", _at(0), "m1"),
            ("expense", "12.25", _at(12), "m2"),
            ("income", "8000", _at(13), "m3"),
            ("expense", "99", _at(23, 59, day=24), "m4"),  # yesterday
        ]
        for direction, amount, at, key in money:
            await records.add_ledger(
                s,
                user_id=user_id,
                direction=direction,
                amount=Decimal(amount),
                category="餐饮",
                note="",
                occurred_at=at,
                source_key=key,
            )
        due = [
            ("today late", DAY, dt.time(18, 0)),
            ("today untimed", DAY, None),
            ("overdue", DAY - dt.timedelta(days=2), None),
            ("today early", DAY, dt.time(9, 30)),
            ("tomorrow", DAY + dt.timedelta(days=1), None),
            ("someday", None, None),
        ]
        made = {}
        for title, day, at in due:
            task = await tasks.add_task(
                s,
                user_id=user_id,
                title=title,
                due_date=day,
                due_time=at,
                now=now,
                source_key=f"t-{title}",
            )
            made[title] = task
        done = await tasks.add_task(
            s, user_id=user_id, title="done", due_date=DAY, due_time=None, now=now, source_key="d"
        )
        await tasks.close_task(s, done.id, status=TaskStatus.DONE, now=now)
        events = [
            ("timed late", DAY, _at(15), _at(16)),
            ("all day", DAY, None, None),
            ("timed early", DAY, _at(9), None),
            ("tomorrow", DAY + dt.timedelta(days=1), _at(9, day=26), None),
        ]
        for title, day, starts, ends in events:
            await records.add_event(
                s,
                user_id=user_id,
                title=title,
                day=day,
                starts_at=starts,
                ends_at=ends,
                remind_minutes_before=None,
                now=now,
                source_key=f"e-{title}",
            )
        await budgets.set_goal_weight(s, user_id, Decimal("65.5"))

    read = await _read(engine, user_id)

    assert read.latest_weight == WeightPoint(value=Decimal("70.85"), occurred_at=_at(7))
    assert read.water == 1
    assert read.spent == Decimal("47.75")
    assert read.goal_weight == Decimal("65.50")
    assert read.open_tasks == 6
    assert read.due_tasks == [
        DueTask(
            number=made[t].number,
            title=t,
            due_date=made[t].due_date or DAY,
            due_time=made[t].due_time,
        )
        for t in ("overdue", "today early", "today late", "today untimed")
    ]
    assert read.events == [
        DayEvent(title="all day", starts_at=None, ends_at=None),
        DayEvent(title="timed early", starts_at=_at(9), ends_at=None),
        DayEvent(title="timed late", starts_at=_at(15), ends_at=_at(16)),
    ]


async def test_more_glasses_taken_back_than_drunk_read_as_none(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock)
    async with engine.begin() as s:
        await records.add_water(s, user_id=user_id, glasses=-2, occurred_at=_at(9), source_key="g")

    assert (await _read(engine, user_id)).water == 0
