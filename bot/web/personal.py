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
from handlers import year
from handlers.texts import kg
from scheduler.core import review_text
from storage.database import Session
from storage.repos import events, reads, tasks, water
from storage.repos.year import facts_between

SPANS = (30, 90, 365)
WEEKDAYS = "一二三四五六日"


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
        return f"{day.month}月{day.day}日：没有记录"
    parts = [f"{day.month}月{day.day}日"]
    if d.weight is not None:
        parts.append(f"体重 {kg(d.weight)}")
    if d.water:
        parts.append(f"喝水 {d.water} 杯")
    if d.spent:
        parts.append(f"支出 {d.spent}")
    if d.tasks_done:
        parts.append(f"完成 {d.tasks_done} 项")
    if d.events:
        parts.append(f"日程 {len(d.events)} 个")
    if d.journal:
        parts.append("有日记")
    return "，".join(parts)


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
        shown.append({"name": f"{month}月", "cells": cells})
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
        "weekdays": WEEKDAYS,
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
                (f"{m.first.month}", float(m.spent), f"{m.first.month}月 支出 {m.spent}")
                for m in month_rows
            ],
            title=f"{today.year}年每月支出",
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
        bars.append((f"{day.day}", float(glasses), f"{day:%m-%d} {glasses} 杯"))
    return charts.bar_chart(bars, title=f"最近 30 天喝水（目标 {goal} 杯）", goal=float(goal))
