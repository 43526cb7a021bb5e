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


# The admin page: every time in the deployment's zone (KEEPER_TIMEZONE), said once
# at the top; ages as people say them (`times.age_words`).
WEB_CONFIG_ERROR = "配置错误"


def web_hold(until: str, why: str, code: int | None) -> str:
    """A channel held after a configuration error, until when (local time) and why."""
    return f"暂停到 {until}：{why}" + (f"（{code}）" if code else "")


def web_zone_note(zone: str, offset: dt.timedelta, now: str) -> str:
    """The page's first line: read-only, which zone its times are in, and now."""
    minutes = int(offset.total_seconds()) // 60
    sign, minutes = ("+" if minutes >= 0 else "-"), abs(minutes)
    utc = f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")
    return f"只读。时间都是 {zone}（{utc}）的当地时间；现在 {now}。"


def web_when(stamp: str, age: str) -> str:
    """An instant in a table: "12-01 20:40（3 分钟前）"."""
    return f"{stamp}（{age}）"


WEB_FACT_LAST_SUCCESS = "最近成功"
WEB_FACT_HOLD = "暂停"
WEB_NEVER = "—"
SERIES_ACCEPTED = "已发出"
SERIES_FAILED = "失败"
SERIES_UNKNOWN = "不确定"
SERIES_ANSWERED = "被回应的提醒"
SERIES_HANDLED = "处理的回调"
SERIES_P95 = "p95 用时"
CHART_CALLBACKS_TITLE = "最近 14 天每天处理的回调和 p95 用时"


def chart_sends_title(channel: str) -> str:
    return f"{channel} 最近 14 天每天的发送结果和被回应的提醒"


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


def chart_days(first: dt.date, last: dt.date) -> str:
    return f"{first:%m-%d} 到 {last:%m-%d}，每天一栏"
