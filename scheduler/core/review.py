"""The weekly review's maths (issue 14): what changed this week, as plain findings.

Pure: the caller reads the user's records into `WeekFacts` (local dates, amounts as
`Decimal`) and gets a `Review` back; `scheduler.core.texts.review_text` words it. Nothing here
counts consecutive days: the review looks at what was recorded, never at what was not.

Decisions, each a table row in tests/unit/test_review.py:
- The week is the 7 local days ending on `facts.week_end` (the review day, normally a
  Sunday); "last week" is the 7 days before it.
- A day's weight is its last weighing. The 7-day moving average at a day is the mean
  of the recorded days among the 7 ending there (missing days are skipped, not zero).
  The week's change is the average at the week's end minus the one a week earlier;
  without a weighing in either window no change is claimed.
- The 4-week trend is the slope of a least-squares line through the recorded days of
  the last 28, in kg a week: it needs `TREND_MIN_DAYS` days spanning at least
  `TREND_MIN_SPAN_DAYS`; under `FLAT_KG_PER_WEEK` either way it is flat.
- A projected date for the weight goal is given only when that fit means something: it
  heads toward the goal, explains at least half the variance (R² >= `FIT_MIN_R2`), and
  arrives within `PROJECTION_MAX_DAYS`.
- Spending per category is compared with its usual: the mean of the previous 4 weeks,
  where a week without that category counts as zero (usual over a month, not over the
  weeks it happened to appear). A category rises only when this week is above each of
  those 4 weeks, so a monthly rent paid this week is not "more than usual". The one
  that rose most is the largest absolute rise; its relative rise exists only when it
  had a usual (a new category has none).
  "Well above usual" needs both `HIGH_RATIO` times the usual and `HIGH_MIN_RISE` more.
- Budgets are monthly per category, measured against the month to date: `near` from
  `BUDGET_NEAR` of it, `over` from all of it.
- At most one suggestion, in this order of urgency: tasks overdue for more than a week
  (move them to next Monday), a budget nearly used up (a task to look at it, titled
  without the amount, since task titles appear in pushed digests), a
  category well above its usual (without a budget: a budget at its usual monthly
  level, or at this week's amount when it has no usual; with one: a task to look at
  it), a weight trend away from the goal (a task for next Monday). A category the
  review names as risen therefore always comes with a step (issue 22).
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Literal

from scheduler.core.texts import suggestions

WEEK = dt.timedelta(days=7)
TREND_WEEKS = 4
TREND_MIN_DAYS = 4
TREND_MIN_SPAN_DAYS = 14
FLAT_KG_PER_WEEK = Decimal("0.2")
FIT_MIN_R2 = 0.5
PROJECTION_MAX_DAYS = 365
HIGH_RATIO = Decimal("1.5")
HIGH_MIN_RISE = Decimal("50")
BUDGET_NEAR = Decimal("0.8")
OVERDUE_FOR = dt.timedelta(days=7)
BUDGET_STEP = Decimal("50")
WEEKS_PER_MONTH = Decimal(52) / Decimal(12)

Trend = Literal["up", "flat", "down"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Expense:
    """One expense on a local day."""

    day: dt.date
    category: str
    amount: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class OpenTask:
    """An open task: its number (for the reply), title and local due date, if any."""

    id: int
    number: int | None
    title: str
    due: dt.date | None


@dataclass(frozen=True, kw_only=True, slots=True)
class WeekFacts:
    """Everything the review may look at, and nothing more.

    `weights` and `expenses` cover at least the 5 weeks ending on `week_end` (older
    ones are ignored); `month_spent` is the month to date per category, for budgets.
    """

    week_end: dt.date
    weights: Sequence[tuple[dt.date, Decimal]] = ()
    goal_weight: Decimal | None = None
    expenses: Sequence[Expense] = ()
    budgets: Mapping[str, Decimal] = field(default_factory=dict)
    month_spent: Mapping[str, Decimal] = field(default_factory=dict)
    tasks_done: int = 0
    open_tasks: Sequence[OpenTask] = ()
    events_next_week: int = 0
    water_goal_days: int = 0
    water_days: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class WeightFindings:
    """The week's weight: the moving average now, its change, the trend, the goal."""

    average: Decimal
    change: Decimal | None
    trend: Trend | None
    per_week: Decimal | None
    to_goal: Decimal | None
    """The goal minus the average: negative when there is weight to lose."""
    projected: dt.date | None
    against_goal: bool
    """The trend moves away from the goal (only with a goal and a trend that is not flat)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CategoryRise:
    """One category this week against its usual (the previous 4 weeks' mean)."""

    category: str
    this_week: Decimal
    usual: Decimal
    rise: Decimal
    percent: int | None
    """The relative rise, None for a category without a usual (new this week)."""
    high: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class SpendingFindings:
    total: Decimal
    by_category: Mapping[str, Decimal]
    rose_most: CategoryRise | None


@dataclass(frozen=True, kw_only=True, slots=True)
class BudgetProgress:
    category: str
    budget: Decimal
    spent: Decimal
    percent: int
    state: Literal["ok", "near", "over"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskFindings:
    done: int
    open: int
    overdue: int
    long_overdue: tuple[OpenTask, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class SuggestBudget:
    category: str
    amount: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class SuggestTask:
    title: str
    due: dt.date


@dataclass(frozen=True, kw_only=True, slots=True)
class MoveOverdue:
    task_ids: tuple[int, ...]
    to: dt.date


Suggestion = SuggestBudget | SuggestTask | MoveOverdue


@dataclass(frozen=True, kw_only=True, slots=True)
class Review:
    week_start: dt.date
    week_end: dt.date
    weight: WeightFindings | None
    spending: SpendingFindings | None
    budgets: tuple[BudgetProgress, ...]
    tasks: TaskFindings
    events_next_week: int
    water_goal_days: int | None
    """Days the water goal was met, None when no water was recorded this week."""
    suggestion: Suggestion | None
    empty: bool
    """Nothing was recorded this week: no review is sent."""


def review(facts: WeekFacts) -> Review:
    """The week ending on `facts.week_end`, as findings and at most one suggestion."""
    end = facts.week_end
    start = end - WEEK + dt.timedelta(days=1)
    daily = daily_weights(facts.weights)
    weight = weight_findings(daily, end, facts.goal_weight)
    spending = spending_findings(facts.expenses, end)
    budgets = budget_progress(facts.budgets, facts.month_spent)
    tasks = task_findings(facts.tasks_done, facts.open_tasks, end)
    weighed_this_week = any(start <= day <= end for day in daily)
    empty = not (weighed_this_week or spending is not None or facts.tasks_done or facts.water_days)
    return Review(
        week_start=start,
        week_end=end,
        weight=weight if weighed_this_week else None,
        spending=spending,
        budgets=budgets,
        tasks=tasks,
        events_next_week=facts.events_next_week,
        water_goal_days=facts.water_goal_days if facts.water_days else None,
        suggestion=suggest(weight, spending, budgets, tasks, facts.budgets, end),
        empty=empty,
    )


def daily_weights(weights: Iterable[tuple[dt.date, Decimal]]) -> dict[dt.date, Decimal]:
    """Each day's last weighing (the input is in time order)."""
    return {day: value for day, value in weights}


def moving_average(daily: Mapping[dt.date, Decimal], day: dt.date) -> Decimal | None:
    """Mean of the recorded days among the 7 ending on `day`; None when none was."""
    values = [daily[d] for d in _days(day - dt.timedelta(days=6), day) if d in daily]
    if not values:
        return None
    return _kg(sum(values, Decimal(0)) / len(values))


@dataclass(frozen=True, kw_only=True, slots=True)
class Fit:
    """A least-squares line through (day offset, kg): kg a day, the level at the end, R²."""

    per_day: float
    at_end: float
    r2: float


def fit(daily: Mapping[dt.date, Decimal], end: dt.date) -> Fit | None:
    """The line through the last 28 days' weighings, when there are enough of them."""
    first = end - dt.timedelta(days=TREND_WEEKS * 7 - 1)
    points = [((d - end).days, float(v)) for d, v in sorted(daily.items()) if first <= d <= end]
    if len(points) < TREND_MIN_DAYS or points[-1][0] - points[0][0] < TREND_MIN_SPAN_DAYS:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    syy = sum((y - mean_y) ** 2 for _, y in points)
    slope = sxy / sxx
    r2 = 1.0 if syy == 0 else (sxy * sxy) / (sxx * syy)
    return Fit(per_day=slope, at_end=mean_y - slope * mean_x, r2=r2)


def weight_findings(
    daily: Mapping[dt.date, Decimal], end: dt.date, goal: Decimal | None
) -> WeightFindings | None:
    average = moving_average(daily, end)
    if average is None:
        return None
    before = moving_average(daily, end - WEEK)
    line = fit(daily, end)
    per_week = _kg(Decimal(repr(line.per_day * 7))) if line is not None else None
    trend: Trend | None = None
    if per_week is not None:
        trend = "flat" if abs(per_week) < FLAT_KG_PER_WEEK else ("up" if per_week > 0 else "down")
    to_goal = goal - average if goal is not None else None
    against = (
        to_goal is not None
        and trend in ("up", "down")
        and to_goal != 0
        and (trend == "up") != (to_goal > 0)
    )
    return WeightFindings(
        average=average,
        change=average - before if before is not None else None,
        trend=trend,
        per_week=per_week,
        to_goal=to_goal,
        projected=projection(line, goal, end),
        against_goal=against,
    )


def projection(line: Fit | None, goal: Decimal | None, end: dt.date) -> dt.date | None:
    """When the fitted line reaches the goal, only if the fit holds and heads there."""
    if line is None or goal is None or line.r2 < FIT_MIN_R2 or line.per_day == 0:
        return None
    days = (float(goal) - line.at_end) / line.per_day
    if not 0 < days <= PROJECTION_MAX_DAYS:
        return None
    return end + dt.timedelta(days=math.ceil(days - 1e-9))  # 70.0000001 is day 70


def spending_findings(expenses: Iterable[Expense], end: dt.date) -> SpendingFindings | None:
    """This week per category against the previous 4 weeks; None when nothing was spent."""
    weeks: list[dict[str, Decimal]] = [defaultdict(Decimal) for _ in range(TREND_WEEKS + 1)]
    for expense in expenses:
        back = (end - expense.day).days // 7
        if expense.day <= end and back <= TREND_WEEKS:
            weeks[back][expense.category] += expense.amount
    this_week = {c: a for c, a in weeks[0].items() if a > 0}
    if not this_week:
        return None
    rising = [
        _rise(c, a, weeks[1:])
        for c, a in this_week.items()
        if all(a > week.get(c, Decimal(0)) for week in weeks[1:])
    ]
    rose_most = max(rising, key=lambda r: (r.rise, r.category)) if rising else None
    ordered = dict(sorted(this_week.items(), key=lambda kv: (-kv[1], kv[0])))
    return SpendingFindings(
        total=sum(this_week.values(), Decimal(0)), by_category=ordered, rose_most=rose_most
    )


def _rise(category: str, amount: Decimal, before: list[dict[str, Decimal]]) -> CategoryRise:
    usual = _money(sum((week.get(category, Decimal(0)) for week in before), Decimal(0)) / 4)
    rise = amount - usual
    percent = int((rise / usual * 100).to_integral_value(ROUND_HALF_UP)) if usual > 0 else None
    high = rise >= HIGH_MIN_RISE and (usual == 0 or amount >= usual * HIGH_RATIO)
    return CategoryRise(
        category=category, this_week=amount, usual=usual, rise=rise, percent=percent, high=high
    )


def budget_progress(
    budgets: Mapping[str, Decimal], month_spent: Mapping[str, Decimal]
) -> tuple[BudgetProgress, ...]:
    """Each budget's month to date, the fullest first."""
    rows = []
    for category, budget in budgets.items():
        spent = month_spent.get(category, Decimal(0))
        share = spent / budget if budget > 0 else Decimal(1)
        state: Literal["ok", "near", "over"] = (
            "over" if share >= 1 else "near" if share >= BUDGET_NEAR else "ok"
        )
        percent = int((share * 100).to_integral_value(ROUND_HALF_UP))
        rows.append(
            BudgetProgress(
                category=category, budget=budget, spent=spent, percent=percent, state=state
            )
        )
    return tuple(sorted(rows, key=lambda b: (-b.percent, b.category)))


def task_findings(done: int, open_tasks: Sequence[OpenTask], today: dt.date) -> TaskFindings:
    overdue = [t for t in open_tasks if t.due is not None and t.due < today]
    long_overdue = tuple(t for t in overdue if t.due is not None and today - t.due > OVERDUE_FOR)
    return TaskFindings(
        done=done, open=len(open_tasks), overdue=len(overdue), long_overdue=long_overdue
    )


def next_monday(day: dt.date) -> dt.date:
    return day + dt.timedelta(days=7 - day.weekday())


def suggest(
    weight: WeightFindings | None,
    spending: SpendingFindings | None,
    budgets: tuple[BudgetProgress, ...],
    tasks: TaskFindings,
    budget_of: Mapping[str, Decimal],
    end: dt.date,
) -> Suggestion | None:
    """The one action most worth a reply, or None (see the module's order)."""
    monday = next_monday(end)
    if tasks.long_overdue:
        return MoveOverdue(task_ids=tuple(t.id for t in tasks.long_overdue), to=monday)
    near = [b for b in budgets if b.state == "near"]
    if near:
        return SuggestTask(title=suggestions.look_at_budget(near[0].category), due=monday)
    rose = spending.rose_most if spending is not None else None
    if rose is not None and rose.high:
        return _step_for_rise(rose, budget_of, monday)
    if weight is not None and weight.against_goal:
        return SuggestTask(title=suggestions.EXERCISE, due=monday)
    return None


def _step_for_rise(
    rose: CategoryRise, budget_of: Mapping[str, Decimal], monday: dt.date
) -> Suggestion:
    """A step for the category the review names as well above its usual (issue 22:
    a change the review names never goes without one). With a budget already, a task
    to look at it; without, a budget: at its usual monthly level, or, for a category
    with no usual (new this week, or nothing in the 4 weeks before), at this week's
    amount, each rounded up to the next `BUDGET_STEP`."""
    if rose.category in budget_of:
        return SuggestTask(title=suggestions.look_at_budget(rose.category), due=monday)
    monthly = rose.usual * WEEKS_PER_MONTH if rose.usual > 0 else rose.this_week
    amount = (monthly / BUDGET_STEP).to_integral_value(ROUND_CEILING) * BUDGET_STEP
    return SuggestBudget(category=rose.category, amount=amount)


def plain(amount: Decimal) -> str:
    """An amount as people write it: 35, 35.5, 1230 (no trailing zeros)."""
    text = format(amount.quantize(Decimal("0.01")), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _days(first: dt.date, last: dt.date) -> Iterable[dt.date]:
    day = first
    while day <= last:
        yield day
        day += dt.timedelta(days=1)


def _kg(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), ROUND_HALF_UP)


def _money(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), ROUND_HALF_UP)


def nudges(
    progress: Iterable[BudgetProgress], told: Mapping[str, int]
) -> tuple[tuple[str, int], ...]:
    """The (category, threshold) pairs a digest should tell: a budget at or past 80
    (`near`) or 100 (`over`) percent whose threshold was not told this month yet
    (`told`: the highest threshold already told this month per category)."""
    found = []
    for budget in progress:
        level = 100 if budget.state == "over" else 80 if budget.state == "near" else 0
        if level > told.get(budget.category, 0):
            found.append((budget.category, level))
    return tuple(found)
