"""The one module that names times for people (pure): every reply and notification
writes a clock time, a day or an instant through these, so they all read alike.

- `hm`: a wall-clock time, "14:05".
- `md`: a day, "11月28日" (the year is never shown).
- `day_label`: a day relative to today, "今天" / "明天" / "11月28日 周六".
- `when`: an instant in the user's zone relative to now, "12:00" / "明天 08:00" /
  "12月3日 08:00".
- `stamp`: an instant for the admin's tables, "11-28 14:05".
- `age_words`: how long ago, as people say it, "3 分钟前" / "38 小时前".
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

WEEKDAYS = "一二三四五六日"
"""Monday first, as `date.weekday()` counts: 周一 ... 周日."""
TOMORROW = "明天"
_RELATIVE_DAYS = {0: "今天", 1: TOMORROW, 2: "后天", -1: "昨天"}


def hm(at: dt.time | dt.datetime) -> str:
    """Wall-clock "14:05" (of a datetime: in its own zone; convert first)."""
    return f"{at.hour:02d}:{at.minute:02d}"


def md(day: dt.date) -> str:
    """ "11月28日"."""
    return f"{day.month}月{day.day}日"


def day_label(day: dt.date, today: dt.date) -> str:
    """ "今天" / "明天" / "后天" / "昨天", else "11月28日 周六"."""
    relative = _RELATIVE_DAYS.get((day - today).days)
    if relative:
        return relative
    return f"{md(day)} 周{WEEKDAYS[day.weekday()]}"


def when(at_utc: dt.datetime, *, now_utc: dt.datetime, tz: ZoneInfo) -> str:
    """Name an instant for a reply, in the user's zone, relative to now.

    "12:00" on the user's current day, "明天 08:00" on the next, "12月3日 08:00"
    on any other day (the year is left out: a reminder is never a year away).

    Raises:
        ValueError: a naive datetime.
    """
    if at_utc.tzinfo is None or now_utc.tzinfo is None:
        raise ValueError("naive datetime; pass aware ones")
    local = at_utc.astimezone(tz)
    days_ahead = (local.date() - now_utc.astimezone(tz).date()).days
    if days_ahead == 0:
        return hm(local)
    if days_ahead == 1:
        return f"{TOMORROW} {hm(local)}"
    return f"{md(local)} {hm(local)}"


def stamp(at: dt.datetime, tz: ZoneInfo) -> str:
    """An instant in `tz` for the admin's tables: "11-28 14:05"."""
    local = at.astimezone(tz)
    return f"{local.month:02d}-{local.day:02d} {hm(local)}"


JUST_NOW = "刚刚"


def age_words(seconds: float) -> str:
    """How long ago, as people say it: "刚刚" under a minute (and for a time ahead,
    a clock a little off), then whole minutes, hours up to two days ("38 小时前":
    yesterday's heartbeat reads better in hours than as "1 天前"), then days.
    Rounded down: "59 分钟前" until the hour is full."""
    whole = int(seconds)
    if whole < 60:
        return JUST_NOW
    if whole < 3600:
        return f"{whole // 60} 分钟前"
    if whole < 48 * 3600:
        return f"{whole // 3600} 小时前"
    return f"{whole // 86400} 天前"
