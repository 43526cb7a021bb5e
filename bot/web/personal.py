"""What the personal page shows, gathered in one read transaction (no writes).

Everything is read for the signed-in user's id only; nothing in the request can
name another user.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

import services.review
from bot.web import charts
from handlers import texts, year
from scheduler.core.texts import review_text, times
from storage.database import Session
from storage.repos import events, reads, tasks, water
from storage.repos.year import facts_between

SPANS = (30, 90, 365)


@dataclass(frozen=True, kw_only=True, slots=True)
class Cell:
    day: dt.date | None  # None: padding before the 1st
    level: int = 0
    future: bool = False
    label: str = ""


def _midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tz).astimezone(dt.UTC)


def _label(day: dt.date, d: year.Day | None) -> str:
    if d is None:
        return texts.calendar_empty_day(day)
    return texts.calendar_day(
        day,
        weight=d.weight,
        water=d.water,
        spent=d.spent,
        tasks_done=d.tasks_done,
        events=len(d.events),
        journal=d.journal,
    )


def months(days: dict[dt.date, year.Day], the_year: int, today: dt.date) -> list[dict[str, Any]]:
    """The year's calendar: per month, its name and its cells, Monday first."""
    shown = []
    for month in range(1, 13):
        first = dt.date(the_year, month, 1)
        cells = [Cell(day=None)] * first.weekday()
        for n in range(1, calendar.monthrange(the_year, month)[1] + 1):
            day = dt.date(the_year, month, n)
            d = days.get(day)
            cells.append(
                Cell(day=day, level=d.level if d else 0, future=day > today, label=_label(day, d))
            )
        shown.append({"name": texts.month_name(month), "cells": cells})
    return shown


async def gather(
    session: Session,
    user_id: int,
    tz: ZoneInfo,
    now: dt.datetime,
    *,
    selected: dt.date | None,
    span: int,
) -> dict[str, Any]:
    """The page's template context."""
    today = now.astimezone(tz).date()
    last = dt.date(today.year, 12, 31)
    first = min(dt.date(today.year, 1, 1), today - dt.timedelta(days=29))  # water: 30 days
    facts = await facts_between(session, user_id, tz, first, last)
    days = year.by_day(facts, tz)
    goal = (await water.habit(session, user_id)).goal
    since = today - dt.timedelta(days=span - 1)
    weights = year.weight_series(
        await reads.weights_between(
            session, user_id, _midnight(since, tz), _midnight(today + dt.timedelta(days=1), tz)
        ),
        tz,
    )
    month_rows = [m for m in year.by_month(facts.by_month) if m.first.year == today.year]
    return {
        "today": today,
        "year": today.year,
        "weekdays": times.WEEKDAYS,
        "months": months(days, today.year, today),
        "selected": selected,
        "detail": days.get(selected) if selected else None,
        "span": span,
        "spans": SPANS,
        "weight_count": len(weights),
        "weight_chart": charts.weight_chart(weights, year.moving_average(weights), since, today),
        "latest_weight": weights[-1][1] if weights else None,
        "water_chart": _water_chart(days, today, goal),
        "goal": goal,
        "money": month_rows,
        "money_chart": charts.bar_chart(
            [
                (
                    f"{m.first.month}",
                    float(m.spent),
                    texts.chart_month_spent(m.first.month, m.spent),
                )
                for m in month_rows
            ],
            title=texts.chart_spending_title(today.year),
        ),
        "open_tasks": await tasks.open_tasks(session, user_id),
        "upcoming": (await events.upcoming(session, user_id, today))[:10],
        "review": review_text.body(await services.review.build(session, user_id, today, tz)),
        "tz": tz,
    }


def _water_chart(days: dict[dt.date, year.Day], today: dt.date, goal: int) -> Any:
    bars = []
    for back in range(29, -1, -1):
        day = today - dt.timedelta(days=back)
        glasses = days[day].water if day in days else 0
        bars.append((f"{day.day}", float(glasses), texts.chart_water_day(day, glasses)))
    return charts.bar_chart(bars, title=texts.chart_water_title(goal), goal=float(goal))
