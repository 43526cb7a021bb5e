"""Handlers for the views: 今天, 本周, 本月/账单. Read-only: they record nothing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers import review, summaries, texts
from handlers.commands import ShowMonth, ShowToday, ShowWeek
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core.texts import times
from storage.database import Session
from storage.repos import reads, tasks
from storage.repos.today import today as reads_today
from storage.vocabulary import LedgerDirection

router = Router("views")
ONE_DAY = dt.timedelta(days=1)


@router.handles(ShowToday)
async def show_today(session: Session, ctx: Context, cmd: ShowToday) -> Outcome:
    today = ctx.today
    start, end = ctx.local_midnight(today), ctx.local_midnight(today + ONE_DAY)
    read = await reads_today(session, ctx.user.id, day=today, start=start, end=end)
    latest = read.latest_weight
    reply = texts.today_view(
        today=today,
        weight=(latest.value, latest.occurred_at.astimezone(ctx.tz).date()) if latest else None,
        water=read.water,
        spent=read.spent,
        tasks=[(t.number, t.title, _due(t.due_date, t.due_time, today)) for t in read.due_tasks],
        open_count=read.open_tasks,
        events=[(_span(e.starts_at, e.ends_at, ctx), e.title) for e in read.events],
        goal=_goal(read.goal_weight, latest.value if latest else None),
    )
    return Outcome(reply=reply)


def _goal(goal: Decimal | None, weight: Decimal | None) -> str | None:
    """The distance to the weight goal, when there is a goal and a weight (never a
    verdict on today's number)."""
    if goal is None or weight is None:
        return None
    return texts.goal_line(review.goal_distance(weight, goal))


def _due(day: dt.date | None, at: dt.time | None, today: dt.date) -> str:
    assert day is not None
    label = texts.overdue_label(day, today)
    return f"{label} {times.hm(at)}" if at else label


def _span(start: dt.datetime | None, end: dt.datetime | None, ctx: Context) -> str:
    return texts.event_span(
        start.astimezone(ctx.tz).time() if start else None,
        end.astimezone(ctx.tz).time() if end else None,
    )


@router.handles(ShowWeek)
async def show_week(session: Session, ctx: Context, cmd: ShowWeek) -> Outcome:
    user_id, monday = ctx.user.id, summaries.week_start(ctx.today)
    start, end = ctx.local_midnight(monday), ctx.local_midnight(monday + 7 * ONE_DAY)
    before = ctx.local_midnight(monday - 7 * ONE_DAY)
    trend = summaries.weight_trend(await reads.weights_between(session, user_id, start, end))
    this = await reads.ledger_between(session, user_id, start, end)
    last = await reads.ledger_between(session, user_id, before, start)
    days = [monday + i * ONE_DAY for i in range((ctx.today - monday).days + 1)]
    water = await reads.water_between(session, user_id, start, end)
    reply = texts.week_view(
        start=monday,
        end=monday + 6 * ONE_DAY,
        weight=texts.weight_line(trend.first, trend.last, trend.low, trend.high, trend.count)
        if trend
        else None,
        spending=texts.spending_lines(
            summaries.spending_by_category(this),
            summaries.spending_by_category(last),
            summaries.total(this, LedgerDirection.EXPENSE),
            summaries.total(last, LedgerDirection.EXPENSE),
        ),
        done=await tasks.count_done_between(session, user_id, start, end),
        water=summaries.water_per_day(water, ctx.tz, days),
    )
    return Outcome(reply=reply)


@router.handles(ShowMonth)
async def show_month(session: Session, ctx: Context, cmd: ShowMonth) -> Outcome:
    first = summaries.month_start(ctx.today)
    start = ctx.local_midnight(first)
    end = ctx.local_midnight(summaries.next_month_start(ctx.today))
    rows = await reads.ledger_between(session, ctx.user.id, start, end)
    reply = texts.month_view(
        month=first,
        by_category=summaries.spending_by_category(rows),
        spent=summaries.total(rows, LedgerDirection.EXPENSE),
        income=summaries.total(rows, LedgerDirection.INCOME),
    )
    if lines := await review.budget_lines(session, ctx):
        reply = "\n".join([reply, texts.BUDGETS_HEAD, *lines])
    return Outcome(reply=reply)
