"""The year read model on both engines: sums per local day and month, in SQL."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.models import LEDGER, WATER_CHECKINS
from storage.repos.year import facts_between
from tests.integration.conftest import new_user

BERLIN = ZoneInfo("Europe/Berlin")


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, minute, tzinfo=dt.UTC)


async def test_water_and_money_are_summed_per_local_day_across_a_clock_change(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user = await new_user(engine, clock, "alice", zone="Europe/Berlin")
    water = [(at(28, 22, 59), 1), (at(28, 23, 0), 2), (at(29, 21, 59), 4), (at(29, 22, 0), 8)]
    money = [(at(29, 0), "expense", "餐饮", "1.10"), (at(29, 1), "expense", "餐饮", "2.20"),
             (at(29, 2), "income", "工资", "100.00"), (at(29, 22, 30), "expense", "交通", "4.00")]  # fmt: skip
    async with engine.begin() as conn:
        for i, (when, glasses) in enumerate(water):
            await conn.execute(insert(WATER_CHECKINS).values(
                user_id=user, glasses=glasses, occurred_at=when, source_key=f"w{i}"))  # fmt: skip
        for i, (when, direction, category, amount) in enumerate(money):
            await conn.execute(insert(LEDGER).values(
                user_id=user, direction=direction, amount=Decimal(amount), category=category,
                note="", occurred_at=when, source_key=f"l{i}"))  # fmt: skip
    async with engine.begin() as session:
        facts = await facts_between(
            session, user, BERLIN, dt.date(2026, 3, 1), dt.date(2026, 3, 31)
        )
    # 22:59 UTC on the 28th is 23:59 CET (the 28th); 23:00 is the 29th's midnight;
    # the 29th ends at 22:00 UTC (00:00 CEST on the 30th).
    assert facts.water == {
        dt.date(2026, 3, 28): 1,
        dt.date(2026, 3, 29): 6,
        dt.date(2026, 3, 30): 8,
    }
    assert facts.money == {
        dt.date(2026, 3, 29): (Decimal("3.30"), Decimal("100.00")),
        dt.date(2026, 3, 30): (Decimal("4.00"), Decimal("0.00")),
    }
    assert facts.by_month == [
        (dt.date(2026, 3, 1), "expense", "交通", Decimal("4.00")),
        (dt.date(2026, 3, 1), "expense", "餐饮", Decimal("3.30")),
        (dt.date(2026, 3, 1), "income", "工资", Decimal("100.00")),
    ]
