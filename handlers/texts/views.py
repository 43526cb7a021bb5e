"""The views' layouts: 今天, 本周, 本月 (账单) and 今年 (`handlers/views.py`,
`handlers/pages.py`); plain values in, the page's lines out."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers.texts.units import kg, signed, yuan
from scheduler.core.texts.times import WEEKDAYS, day_label, md

BUDGETS_HEAD = "预算："
"""Above the budgets' lines under 本月."""


def today_view(
    *,
    today: dt.date,
    weight: tuple[Decimal, dt.date] | None,
    water: int,
    spent: Decimal,
    tasks: list[tuple[int | None, str, str]],
    open_count: int,
    events: list[tuple[str, str]],
    goal: str | None = None,
) -> str:
    lines = [f"今天 {md(today)} 周{WEEKDAYS[today.weekday()]}"]
    if weight is None:
        lines.append("体重：还没记录")
    else:
        value, day = weight
        lines.append(
            f"体重 {kg(value)} kg" + ("" if day == today else f"（{day_label(day, today)}）")
        )
    if goal is not None:
        lines.append(goal)
    lines.append(f"喝水 {water} 杯")
    lines.append(f"支出 {yuan(spent)}")
    if tasks:
        lines.append("待办：")
        lines.extend(f"  {n} {title}（{due}）" for n, title, due in tasks)
    else:
        lines.append(
            f"待办：今天没有到期的（另有 {open_count} 项，发「任务」查看）"
            if open_count
            else "待办：无"
        )
    lines.append("日程：" + ("无" if not events else ""))
    lines.extend(f"  {span} {title}" for span, title in events)
    return "\n".join(lines)


def overdue_label(day: dt.date, today: dt.date) -> str:
    return "今天" if day == today else f"逾期，{md(day)}"


def weight_line(first: Decimal, last: Decimal, low: Decimal, high: Decimal, count: int) -> str:
    if count == 1:
        return f"体重 {kg(last)} kg（本周记了 1 次）"
    return (
        f"体重 {kg(first)} → {kg(last)} kg（{signed(last - first, ' kg')}），"
        f"最低 {kg(low)}，最高 {kg(high)}"
    )


def spending_lines(
    this: dict[str, Decimal], last: dict[str, Decimal], this_total: Decimal, last_total: Decimal
) -> list[str]:
    lines = [f"支出 {yuan(this_total)}（上周 {yuan(last_total)}）"]
    for category, amount in this.items():
        before = last.get(category)
        lines.append(
            f"  {category} {yuan(amount)}" + (f"（上周 {yuan(before)}）" if before else "")
        )
    return lines


def week_view(
    *,
    start: dt.date,
    end: dt.date,
    weight: str | None,
    spending: list[str],
    done: int,
    water: dict[dt.date, int],
) -> str:
    lines = [f"本周 {md(start)}-{md(end)}", weight or "体重：本周没有记录"]
    lines.extend(spending)
    lines.append(f"完成待办 {done} 项")
    days = " · ".join(f"周{WEEKDAYS[d.weekday()]} {n}" for d, n in water.items())
    lines.append(f"喝水（杯）{days}")
    return "\n".join(lines)


def month_view(
    *, month: dt.date, by_category: dict[str, Decimal], spent: Decimal, income: Decimal
) -> str:
    lines = [f"{month.month}月账单", f"支出 {yuan(spent)}"]
    lines.extend(f"  {category} {yuan(amount)}" for category, amount in by_category.items())
    if income:
        lines.append(f"收入 {yuan(income)}")
    if not by_category and not income:
        lines.append("本月还没有记账。发「记账 35 午饭」试试。")
    return "\n".join(lines)


def year_view(
    *,
    year: int,
    through: dt.date,
    days: int,
    weight: tuple[Decimal, Decimal, Decimal, int] | None,
    water_days: int,
    goal_days: int,
    spent: Decimal,
    income: Decimal,
    top: tuple[str, Decimal] | None,
    done: int,
    events: int,
    journal_days: int,
) -> str:
    """`今年`: a few lines; `weight` is (first, last, lowest, count)."""
    if days == 0:
        return f"{year}年还没有记录。记下第一条吧，比如：体重 72.4"
    lines = [f"{year}年（到{md(through)}），有记录的 {days} 天"]
    if weight:
        first, last, low, count = weight
        lines.append(f"体重 {kg(first)} → {kg(last)} kg，最低 {kg(low)}（称了 {count} 次）")
    if water_days:
        lines.append(f"喝水 {water_days} 天，达标 {goal_days} 天")
    if spent or income:
        most = f"，最多：{top[0]} {yuan(top[1])}" if top else ""
        lines.append(f"支出 {yuan(spent)}，收入 {yuan(income)}{most}")
    lines.append(f"完成待办 {done} 项 · 日程 {events} 个 · 日记 {journal_days} 天")
    lines.append("全年日历和图表：发「网页」")
    return "\n".join(lines)
