"""Pure read-model maths for the views: plain rows in, summary values out.

No I/O and no clock: callers pass the rows and the user's zone. Tested as tables.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from storage.records import LedgerRow, WeightPoint
from storage.vocabulary import LedgerDirection

ZERO = Decimal("0.00")


@dataclass(frozen=True, kw_only=True, slots=True)
class WeightTrend:
    first: Decimal
    last: Decimal
    low: Decimal
    high: Decimal
    count: int

    @property
    def change(self) -> Decimal:
        return self.last - self.first


def weight_trend(points: Sequence[WeightPoint]) -> WeightTrend | None:
    """First/last/min/max of a period's weights (in time order), or None if none."""
    if not points:
        return None
    values = [p.value for p in points]
    return WeightTrend(
        first=values[0], last=values[-1], low=min(values), high=max(values), count=len(values)
    )


def spending_by_category(rows: Iterable[LedgerRow]) -> dict[str, Decimal]:
    """Expense totals per category, largest first (ties by name)."""
    totals: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for row in rows:
        if row.direction == LedgerDirection.EXPENSE:
            totals[row.category] += row.amount
    return dict(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


def total(rows: Iterable[LedgerRow], direction: str) -> Decimal:
    return sum((r.amount for r in rows if r.direction == direction), ZERO)


def water_per_day(
    checkins: Iterable[tuple[dt.datetime, int]], tz: ZoneInfo, days: Sequence[dt.date]
) -> dict[dt.date, int]:
    """Glasses per local day for each of `days` (zero where none; never negative)."""
    per_day = dict.fromkeys(days, 0)
    for at, glasses in checkins:
        day = at.astimezone(tz).date()
        if day in per_day:
            per_day[day] += glasses
    return {day: max(0, n) for day, n in per_day.items()}


def week_start(day: dt.date) -> dt.date:
    """The Monday of `day`'s week."""
    return day - dt.timedelta(days=day.weekday())


def month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def next_month_start(day: dt.date) -> dt.date:
    first = month_start(day)
    return (first + dt.timedelta(days=32)).replace(day=1)
