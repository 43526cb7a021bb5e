"""The year's facts projected per day and per month: pure, no I/O.

Serves the personal page (`bot.web`) and the chat view `今年`. Input is
`storage.repos.year.SpanFacts` (rows in UTC) and the user's zone; output is plain
values keyed by the user's local dates and months.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from zoneinfo import ZoneInfo

from storage.records import WeightPoint
from storage.repos.year import SpanFacts
from storage.vocabulary import LedgerDirection

ZERO = Decimal("0.00")


@dataclass(kw_only=True, slots=True)
class Day:
    """What one local day holds. `journal` says only whether an entry exists."""

    weight: Decimal | None = None
    water: int = 0
    spent: Decimal = ZERO
    income: Decimal = ZERO
    tasks_done: int = 0
    events: list[str] = field(default_factory=list)
    journal: bool = False

    @property
    def level(self) -> int:
        """How much was recorded, 0-4, for the calendar's shading."""
        kinds = (
            self.weight is not None,
            self.water > 0,
            self.spent > 0 or self.income > 0,
            self.tasks_done > 0 or bool(self.events),
            self.journal,
        )
        return min(4, sum(kinds))


def by_day(facts: SpanFacts, tz: ZoneInfo) -> dict[dt.date, Day]:
    """Each local day that has any fact; the last weight of a day is the day's."""
    days: defaultdict[dt.date, Day] = defaultdict(Day)

    def local(at: dt.datetime) -> dt.date:
        return at.astimezone(tz).date()

    for w in facts.weights:
        days[local(w.occurred_at)].weight = w.value  # rows come in time order
    for on, glasses in facts.water.items():
        days[on].water = max(0, glasses)  # a day of corrections only is not negative
    for on, (spent, income) in facts.money.items():
        days[on].spent, days[on].income = spent, income
    for at in facts.tasks_done:
        days[local(at)].tasks_done += 1
    for on, title in facts.events:
        days[on].events.append(title)
    for at in facts.journal:
        days[local(at)].journal = True
    return dict(days)


def moving_average(
    points: Sequence[tuple[dt.date, Decimal]], window_days: int = 7
) -> list[tuple[dt.date, Decimal]]:
    """For each point, the mean of the points in the `window_days` days ending on its
    date (a trailing window by date, so gaps do not stretch it)."""
    averaged = []
    for i, (day, _) in enumerate(points):
        since = day - dt.timedelta(days=window_days - 1)
        inside = [v for d, v in points[: i + 1] if d >= since]
        averaged.append((day, (sum(inside, ZERO) / len(inside)).quantize(Decimal("0.01"))))
    return averaged


def weight_series(points: Iterable[WeightPoint], tz: ZoneInfo) -> list[tuple[dt.date, Decimal]]:
    """Every weight recorded, as (local date, kg), in time order."""
    return [(p.occurred_at.astimezone(tz).date(), p.value) for p in points]


@dataclass(frozen=True, kw_only=True, slots=True)
class Month:
    first: dt.date
    spent: Decimal
    income: Decimal
    by_category: dict[str, Decimal]


def by_month(sums: Iterable[tuple[dt.date, str, str, Decimal]]) -> list[Month]:
    """Spending per category, spending and income per month, oldest first, from
    (first of month, direction, category, sum) rows; months without any are left out."""
    spent: defaultdict[dt.date, dict[str, Decimal]] = defaultdict(dict)
    income: defaultdict[dt.date, Decimal] = defaultdict(lambda: ZERO)
    for first, direction, category, amount in sums:
        if direction == LedgerDirection.EXPENSE:
            cats = spent[first]
            cats[category] = cats.get(category, ZERO) + amount
        else:
            income[first] += amount
    months = sorted(set(spent) | set(income))
    return [
        Month(
            first=m,
            spent=sum(spent[m].values(), ZERO),
            income=income[m],
            by_category=dict(sorted(spent[m].items(), key=lambda kv: (-kv[1], kv[0]))),
        )
        for m in months
    ]


@dataclass(frozen=True, kw_only=True, slots=True)
class YearSummary:
    """`今年` in numbers."""

    year: int
    through: dt.date
    days_recorded: int
    weights: int
    first_weight: Decimal | None
    last_weight: Decimal | None
    low_weight: Decimal | None
    water_days: int
    water_goal_days: int
    spent: Decimal
    income: Decimal
    top_category: tuple[str, Decimal] | None
    tasks_done: int
    events: int
    journal_days: int


def summarise(
    days: dict[dt.date, Day], months: Iterable[Month], *, year: int, through: dt.date, goal: int
) -> YearSummary:
    """The year up to and including `through` (`months`: its ledger per month)."""
    inside = {d: v for d, v in days.items() if d.year == year and d <= through}
    ordered = [inside[d] for d in sorted(inside)]
    weights = [d.weight for d in ordered if d.weight is not None]
    categories: dict[str, Decimal] = {}
    for month in months:
        if month.first.year == year:
            for name, amount in month.by_category.items():
                categories[name] = categories.get(name, ZERO) + amount
    return YearSummary(
        year=year,
        through=through,
        days_recorded=sum(1 for d in ordered if d.level > 0),
        weights=len(weights),
        first_weight=weights[0] if weights else None,
        last_weight=weights[-1] if weights else None,
        low_weight=min(weights) if weights else None,
        water_days=sum(1 for d in ordered if d.water > 0),
        water_goal_days=sum(1 for d in ordered if goal and d.water >= goal),
        spent=sum((d.spent for d in ordered), ZERO),
        income=sum((d.income for d in ordered), ZERO),
        top_category=max(categories.items(), key=lambda kv: (kv[1], kv[0])) if categories else None,
        tasks_done=sum(d.tasks_done for d in ordered),
        events=sum(len(d.events) for d in ordered),
        journal_days=sum(1 for d in ordered if d.journal),
    )
