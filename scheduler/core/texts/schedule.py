"""A repeat rule in words (`scheduler.core.schedule` holds the rule and its maths):
`每天 22:00`, `工作日 18:00`, `每周一、三 07:00`, `每月1号 09:00`, `11月30日 09:00`."""

from __future__ import annotations

from scheduler.core.schedule import Schedule
from scheduler.core.texts.times import hm, md

EVERY_DAY = "每天"
WORKDAYS = "工作日"
WEEKEND = "周末"
EVERY_WEEK = "每周"
EVERY_MONTH_LAST_DAY = "每月最后一天"
CUSTOM = "自定义"
WEEKDAY_NAMES = {"mon": "一", "tue": "二", "wed": "三", "thu": "四", "fri": "五", "sat": "六"}
WEEKDAY_NAMES |= {"sun": "日"}


def describe(schedule: Schedule) -> str:
    """A short Chinese label: `每天 22:00`, `工作日 18:00`, `每月1号 09:00`, `11月30日 09:00`.

    One-offs never show the year. Fields no parser writes fall back to a plain list.
    """
    if schedule.once_at is not None:
        at = schedule.once_at
        return f"{md(at)} {hm(at)}"
    fields = dict(schedule.cron)
    clock = _describe_clock(fields.pop("hour"), fields.pop("minute"))
    days = _describe_days(fields)
    if clock is None or days is None:
        return f"{CUSTOM} " + " ".join(f"{name}={value}" for name, value in schedule.cron)
    return f"{days} {clock}"


def _describe_clock(hour: str, minute: str) -> str | None:
    if not (hour.isdigit() and minute.isdigit()):
        return None
    return f"{int(hour):02d}:{int(minute):02d}"


def _describe_days(fields: dict[str, str]) -> str | None:
    """The day part of a label, or None for a shape the parser does not write."""
    if not fields:
        return EVERY_DAY
    if fields.keys() == {"day_of_week"}:
        return _describe_weekdays(fields["day_of_week"])
    if fields.keys() == {"day"}:
        return _describe_month_days(fields["day"])
    if fields.keys() == {"month", "day"} and (fields["month"] + fields["day"]).isdigit():
        return f"每年{int(fields['month'])}月{int(fields['day'])}日"
    return None


def _describe_weekdays(value: str) -> str | None:
    if value == "mon-fri":
        return WORKDAYS
    if value == "sat,sun":
        return WEEKEND
    names = value.split(",")
    if not all(name in WEEKDAY_NAMES for name in names):
        return None
    return EVERY_WEEK + "、".join(WEEKDAY_NAMES[name] for name in names)


def _describe_month_days(value: str) -> str | None:
    if value == "last":
        return EVERY_MONTH_LAST_DAY
    days = value.split(",")
    if not all(day.isdigit() for day in days):
        return None
    return "每月" + "、".join(f"{int(day)}号" for day in days)
