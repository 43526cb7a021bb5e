"""The views' pure maths, as tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from handlers import summaries
from storage.records import LedgerRow, WeightPoint

SHANGHAI = ZoneInfo("Asia/Shanghai")
T0 = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)


def _w(*values: str) -> list[WeightPoint]:
    return [
        WeightPoint(value=Decimal(v), occurred_at=T0 + dt.timedelta(hours=i))
        for i, v in enumerate(values)
    ]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ((), None),
        (("72.4",), ("72.4", "72.4", "72.4", "72.4", "0")),
        (("73", "72.1", "72.6"), ("73", "72.6", "72.1", "73", "-0.4")),
        (("70", "71"), ("70", "71", "70", "71", "1")),
    ],
)
def test_weight_trend_is_first_last_low_high_and_change(
    values: tuple[str, ...], expected: tuple[str, ...] | None
) -> None:
    trend = summaries.weight_trend(_w(*values))
    if expected is None:
        assert trend is None
        return
    assert trend is not None
    got = (trend.first, trend.last, trend.low, trend.high, trend.change)
    assert got == tuple(Decimal(v) for v in expected)


def _row(direction: str, amount: str, category: str) -> LedgerRow:
    return LedgerRow(direction=direction, amount=Decimal(amount), category=category, occurred_at=T0)


def test_spending_is_summed_per_category_largest_first_and_income_ignored() -> None:
    rows = [
        _row("expense", "0.10", "咖啡"),
        _row("expense", "0.20", "咖啡"),
        _row("expense", "12", "午饭"),
        _row("income", "8000", "工资"),
        _row("expense", "12", "交通"),
    ]
    assert summaries.spending_by_category(rows) == {
        "交通": Decimal("12"),
        "午饭": Decimal("12"),
        "咖啡": Decimal("0.30"),
    }
    assert summaries.total(rows, "expense") == Decimal("24.30")
    assert summaries.total(rows, "income") == Decimal("8000")
    assert summaries.total([], "expense") == Decimal("0.00")


def test_water_is_counted_per_local_day_and_never_negative() -> None:
    days = [dt.date(2026, 11, 23), dt.date(2026, 11, 24)]
    checkins = [
        (dt.datetime(2026, 11, 22, 16, 30, tzinfo=dt.UTC), 2),  # 00:30 on the 23rd in Shanghai
        (dt.datetime(2026, 11, 23, 15, 59, tzinfo=dt.UTC), 1),  # 23:59 on the 23rd
        (dt.datetime(2026, 11, 24, 1, 0, tzinfo=dt.UTC), -2),
        (dt.datetime(2026, 11, 30, 1, 0, tzinfo=dt.UTC), 5),  # outside the days asked
    ]
    assert summaries.water_per_day(checkins, SHANGHAI, days) == {days[0]: 3, days[1]: 0}


@pytest.mark.parametrize(
    ("day", "monday", "month_start", "next_month"),
    [
        (dt.date(2026, 11, 25), dt.date(2026, 11, 23), dt.date(2026, 11, 1), dt.date(2026, 12, 1)),
        (dt.date(2026, 11, 23), dt.date(2026, 11, 23), dt.date(2026, 11, 1), dt.date(2026, 12, 1)),
        (dt.date(2026, 11, 29), dt.date(2026, 11, 23), dt.date(2026, 11, 1), dt.date(2026, 12, 1)),
        (dt.date(2026, 12, 31), dt.date(2026, 12, 28), dt.date(2026, 12, 1), dt.date(2027, 1, 1)),
        (dt.date(2027, 1, 1), dt.date(2026, 12, 28), dt.date(2027, 1, 1), dt.date(2027, 2, 1)),
        (dt.date(2028, 2, 29), dt.date(2028, 2, 28), dt.date(2028, 2, 1), dt.date(2028, 3, 1)),
    ],
)
def test_week_and_month_boundaries(
    day: dt.date, monday: dt.date, month_start: dt.date, next_month: dt.date
) -> None:
    assert summaries.week_start(day) == monday
    assert summaries.month_start(day) == month_start
    assert summaries.next_month_start(day) == next_month
