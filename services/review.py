"""The weekly review's reads: one user's records gathered into `scheduler.core.review.WeekFacts`.

Used by 「周报」 in chat (handlers) and by the Sunday push (the tick's kind), so both
read the same week the same way. Read-only; the maths is `scheduler.core.review` (pure).

The week ends on `week_end` (a local date, inclusive); the reads reach back 5 weeks
for the moving averages and the usual spending, and the month to date for budgets.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from zoneinfo import ZoneInfo

from scheduler.core import review
from scheduler.core.texts import review_text
from storage.database import Session
from storage.records import LedgerRow
from storage.repos import budgets, events, reads, tasks, water
from storage.vocabulary import LedgerDirection

READ_WEEKS = review.TREND_WEEKS + 1


def _midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    """The start of local `day` in `tz`, as a UTC instant (the reads' bounds)."""
    return dt.datetime.combine(day, dt.time(), tz).astimezone(dt.UTC)


async def build(session: Session, user_id: int, week_end: dt.date, tz: ZoneInfo) -> review.Review:
    """The review of the 7 local days ending on `week_end`."""
    return review.review(await week_facts(session, user_id, week_end, tz))


async def week_facts(
    session: Session, user_id: int, week_end: dt.date, tz: ZoneInfo
) -> review.WeekFacts:
    """Everything `scheduler.core.review.review` looks at, read from storage."""

    def at(day: dt.date) -> dt.datetime:
        return _midnight(day, tz)

    day_after = week_end + dt.timedelta(days=1)
    week_start = day_after - review.WEEK
    first = at(day_after - READ_WEEKS * review.WEEK)
    weights = await reads.weights_between(session, user_id, first, at(day_after))
    ledger = await reads.ledger_between(session, user_id, first, at(day_after))
    month_start = week_end.replace(day=1)
    month_ledger = await reads.ledger_between(session, user_id, at(month_start), at(day_after))
    water_days, goal_days = await _water(session, user_id, week_start, day_after, tz)
    return review.WeekFacts(
        week_end=week_end,
        weights=[(w.occurred_at.astimezone(tz).date(), w.value) for w in weights],
        goal_weight=await budgets.goal_weight(session, user_id),
        expenses=[
            review.Expense(
                day=r.occurred_at.astimezone(tz).date(), category=r.category, amount=r.amount
            )
            for r in ledger
            if r.direction == LedgerDirection.EXPENSE
        ],
        budgets={b.category: b.amount for b in await budgets.of_user(session, user_id)},
        month_spent=_by_category(r for r in month_ledger if r.direction == LedgerDirection.EXPENSE),
        tasks_done=await tasks.count_done_between(session, user_id, at(week_start), at(day_after)),
        open_tasks=[
            review.OpenTask(id=t.id, number=t.number, title=t.title, due=t.due_date)
            for t in await tasks.open_tasks(session, user_id)
        ],
        events_next_week=await _events(session, user_id, day_after),
        water_goal_days=goal_days,
        water_days=water_days,
    )


def _by_category(rows: Iterable[LedgerRow]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for row in rows:
        totals[row.category] += row.amount
    return dict(totals)


async def _water(
    session: Session, user_id: int, start: dt.date, end: dt.date, tz: ZoneInfo
) -> tuple[int, int]:
    """(days with any water recorded, days the goal was met) in [start, end)."""
    since, until = _midnight(start, tz), _midnight(end, tz)
    per_day: dict[dt.date, int] = defaultdict(int)
    for when, glasses in await reads.water_between(session, user_id, since, until):
        per_day[when.astimezone(tz).date()] += glasses
    goal = (await water.habit(session, user_id)).goal
    recorded = [total for total in per_day.values() if total > 0]
    return len(recorded), sum(1 for total in recorded if total >= goal)


async def _events(session: Session, user_id: int, monday: dt.date) -> int:
    """Scheduled events in the 7 days from `monday` (one query, not one a day)."""
    return await events.count_between(session, user_id, monday, monday + dt.timedelta(days=6))


async def budget_nudge(
    session: Session, user_id: int, now: dt.datetime, tz: ZoneInfo
) -> str | None:
    """The digest's budget line, if a threshold was crossed and not yet told this
    month; telling it is remembered at once (the digest is at most once anyway)."""
    have = await budgets.of_user(session, user_id)
    if not have:
        return None
    today = now.astimezone(tz).date()
    month = today.strftime("%Y-%m")
    start = _midnight(today.replace(day=1), tz)
    rows = await reads.ledger_between(session, user_id, start, now + dt.timedelta(seconds=1))
    spent = _by_category(r for r in rows if r.direction == LedgerDirection.EXPENSE)
    progress = review.budget_progress({b.category: b.amount for b in have}, spent)
    told = {b.category: b.nudged_level for b in have if b.nudged_month == month}
    found = review.nudges(progress, told)
    for category, level in found:
        await budgets.mark_nudged(session, user_id, category, month=month, level=level)
    return review_text.budget_nudge(found)
