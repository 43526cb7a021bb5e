"""The pages' words (`bot/web/`): a link that does not work, signed out, not an admin,
a malformed query, and the calendar's and charts' labels. The HTML around them is in
`bot/web/templates/`; each page pairs a title with one sentence."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers.texts.units import kg

WEB_LINK_UNKNOWN = (
    "链接无效",
    "这个链接不对（可能被改动过或不完整）。在企业微信里再发一次「网页」或「导出」。",
)
WEB_LINK_USED = (
    "链接已用过",
    "这个链接只能用一次，已经用过了。要新链接，在企业微信里再发一次「网页」或「导出」。",
)
WEB_LINK_EXPIRED = (
    "链接已过期",
    "链接 10 分钟内有效，已经过期了。要新链接，在企业微信里再发一次「网页」或「导出」。",
)
WEB_NO_SESSION = ("请先登录", "在企业微信里给 keeper 发「网页」，点回复里的链接打开。")
WEB_NOT_ADMIN = ("没有权限", "这一页只给管理员看。管理员在企业微信里发「管理 网页」。")
WEB_BAD_QUERY = "参数不对"
WEB_BAD_SPAN = "span 只能是 30、90 或 365。"


def web_bad_day(year: int) -> str:
    return f"day 要写成 {year}-MM-DD（今年的日期）。"


# The admin page.
WEB_CONFIG_ERROR = "配置错误"


def web_hold(until: str, why: str, code: int | None) -> str:
    """A channel held after a configuration error, until when (UTC) and why."""
    return f"暂停到 {until} UTC：{why}" + (f"（{code}）" if code else "")


# The personal page: the year's calendar and the charts.


def month_name(month: int) -> str:
    return f"{month}月"


def calendar_empty_day(day: dt.date) -> str:
    return f"{day.month}月{day.day}日：没有记录"


def calendar_day(
    day: dt.date,
    *,
    weight: Decimal | None,
    water: int,
    spent: Decimal,
    tasks_done: int,
    events: int,
    journal: bool,
) -> str:
    """One day of the calendar, as its cell's label reads it."""
    parts = [f"{day.month}月{day.day}日"]
    if weight is not None:
        parts.append(f"体重 {kg(weight)}")
    if water:
        parts.append(f"喝水 {water} 杯")
    if spent:
        parts.append(f"支出 {spent}")
    if tasks_done:
        parts.append(f"完成 {tasks_done} 项")
    if events:
        parts.append(f"日程 {events} 个")
    if journal:
        parts.append("有日记")
    return "，".join(parts)


CHART_NO_WEIGHTS = "这段时间没有体重记录"
CHART_EMPTY = "没有记录"
CHART_AVERAGE = "7 天平均"


def chart_weight_title(first: dt.date, last: dt.date, count: int) -> str:
    return f"体重 {first:%m-%d} 到 {last:%m-%d}，{count} 次"


def chart_weight_range(low: float, high: float) -> str:
    return f"最低 {low:.1f} kg，最高 {high:.1f} kg；线是 7 天平均"


def chart_goal(goal: float) -> str:
    return f"目标 {goal:g}"


def chart_bars(count: int) -> str:
    return f"{count} 项"


def chart_month_spent(month: int, spent: Decimal) -> str:
    return f"{month}月 支出 {spent}"


def chart_spending_title(year: int) -> str:
    return f"{year}年每月支出"


def chart_water_day(day: dt.date, glasses: int) -> str:
    return f"{day:%m-%d} {glasses} 杯"


def chart_water_title(goal: int) -> str:
    return f"最近 30 天喝水（目标 {goal} 杯）"
