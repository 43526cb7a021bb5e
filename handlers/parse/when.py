"""Dates and times as spoken, resolved against the user's `today`.

The parser never reads the clock: the caller passes `today`, the date in the user's
time zone. Weeks start on Monday. The rules:

- 今天/今日, 明天/明日, 后天, 大后天: today plus 0, 1, 2, 3 days.
- 周X, 星期X, 礼拜X (X is 一..六 or 1..7; 日, 天 and 7 mean Sunday): the next such
  weekday that is today or later. On a Friday, 周五 is today.
- 本周X, 这周X (also 这个星期X): that weekday of the current week, even if it has
  passed. 下周X (also 下个星期X): that weekday of next week.
- YYYY-MM-DD, YYYY/MM/DD, YYYY年M月D日: exactly that date, even in the past.
- M-D, M/D, M月D日, M月D号: this year if that date is today or later, else next year.
- D号, D日: this month if D is today's day or later, else next month.
- A date that does not exist where the rule lands (13-45, 2月30日, 11月31号, 2-29 in
  a non-leap year) is a ParseError; it is never moved to a neighbouring day.
- Times: HH:MM, H点, H点半, H点M分, optionally after 凌晨/早上/上午/中午/下午/傍晚/
  晚上. 下午, 傍晚 and 晚上 add 12 to hours 1-11; 中午 adds 12 to 1-2. Hours run
  0-23 and minutes 0-59, so 24:00 is a ParseError. In a range (14:00-15:00, 下午2点到
  4点) an end without its own period word inherits the start's afternoon shift.

Spoken forms read too: 周末 (the coming Saturday), 月底 (the month's last day),
下个月N号, `12.5` (M.D, only where a day is expected), 今早/今晚/明早/明晚 (a day and
its period), Chinese numerals in times (三点, 七点半, 八点五十, 十点一刻, 十五点).

A day word may be followed directly by a time or by the title (`后天下午3点`,
`明天买菜`); numbers are never split (`12-012` is not a date).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

from handlers import texts
from handlers.commands import ParseError
from handlers.parse.lexicon import (
    AFTERNOON,
    MINUTE_WORDS,
    MORNING,
    PERIOD_TIMES,
    RELATIVE_DAYS,
    WEEKDAYS,
)
from handlers.parse.normalise import strip_separators
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    ALL_DAY,
    BEFORE_PATTERN,
    CN_MONTH_DAY_PATTERN,
    DAY_OF_MONTH_PATTERN,
    DOT_DATE_PATTERN,
    FULL_DATE_PATTERN,
    MONTH_DAY_PATTERN,
    MONTH_END_PATTERN,
    NEXT_MONTH_DAY_PATTERN,
    NEXT_WORD,
    NOON,
    ONE,
    PERIOD_ALONE_PATTERN,
    PM,
    RANGE_JOIN_PATTERN,
    RELATIVE_DAY_PATTERN,
    SHORT_DAY_PERIODS,
    TIME_PATTERN,
    WEEKDAY_PATTERN,
    WEEKEND_PATTERN,
)

Week = Literal["nearest", "this", "next"]

_SHORT_DAY = re.compile("|".join(sorted(SHORT_DAY_PERIODS, key=len, reverse=True)))

_FULL_DATE = re.compile(FULL_DATE_PATTERN)
_MONTH_DAY = re.compile(MONTH_DAY_PATTERN)
_CN_MONTH_DAY = re.compile(CN_MONTH_DAY_PATTERN)
"""`十二月十五号`, `三月八日`: a month and day in Chinese numerals (with 日 or 号)."""
_DOT_DATE = re.compile(DOT_DATE_PATTERN)
_DAY_OF_MONTH = re.compile(DAY_OF_MONTH_PATTERN)
_NEXT_MONTH_DAY = re.compile(NEXT_MONTH_DAY_PATTERN)
_MONTH_END = re.compile(MONTH_END_PATTERN)
_WEEKEND = re.compile(WEEKEND_PATTERN)
_RELATIVE = re.compile(RELATIVE_DAY_PATTERN)
_WEEKDAY = re.compile(WEEKDAY_PATTERN)
_TIME = re.compile(TIME_PATTERN)
_BEFORE = re.compile(BEFORE_PATTERN)
_PERIOD_ALONE = re.compile(PERIOD_ALONE_PATTERN)
_RANGE_JOIN = re.compile(RANGE_JOIN_PATTERN)


@dataclass(frozen=True, slots=True)
class TimeMatch:
    """A time found at some position: the time, where it ended, and its period word."""

    time: dt.time
    end: int
    period: str | None
    shifted: bool


@dataclass(frozen=True, slots=True)
class When:
    """The day and time words at the start of a command body, and what follows them."""

    day: dt.date | None
    start: dt.time | None
    end: dt.time | None
    all_day: bool
    rest: str


def make_date(year: int, month: int, day: int) -> dt.date:
    """The date, or ParseError when there is no such day (never a neighbouring one)."""
    try:
        return dt.date(year, month, day)
    except (ValueError, OverflowError):
        raise ParseError(texts.no_such_day(month, day)) from None


def add_days(today: dt.date, days: int) -> dt.date:
    """`today` plus `days`, or ParseError at the ends of the calendar."""
    try:
        return today + dt.timedelta(days=days)
    except OverflowError:
        raise ParseError(texts.invalid_date(str(today))) from None


def resolve_weekday(weekday: int, today: dt.date, week: Week = "nearest") -> dt.date:
    """Weekday 0 (Monday) .. 6 (Sunday): nearest today-or-later, this week's, or next's."""
    if week == "nearest":
        return add_days(today, (weekday - today.weekday()) % 7)
    monday_offset = -today.weekday() + (7 if week == "next" else 0)
    return add_days(today, monday_offset + weekday)


def resolve_month_day(month: int, day: int, today: dt.date) -> dt.date:
    """M月D日 without a year: this year if today or later, else next year."""
    later_this_year = (month, day) >= (today.month, today.day)
    return make_date(today.year if later_this_year else today.year + 1, month, day)


def resolve_day_of_month(day: int, today: dt.date) -> dt.date:
    """D号: this month if D is today's day or later, else next month."""
    if day >= today.day:
        return make_date(today.year, today.month, day)
    if today.month == 12:
        return make_date(today.year + 1, 1, day)
    return make_date(today.year, today.month + 1, day)


def match_day(text: str, today: dt.date, pos: int = 0) -> tuple[dt.date, int] | None:
    """A day expression starting at `pos`: the resolved date and where it ended."""
    if match := _FULL_DATE.match(text, pos):
        month, day = match["m"] or match["cm"], match["d"] or match["cd"]
        return make_date(int(match["y"]), int(month), int(day)), match.end()
    if match := _MONTH_DAY.match(text, pos):
        return resolve_month_day(int(match["m"]), int(match["d"]), today), match.end()
    if match := _CN_MONTH_DAY.match(text, pos):
        month = _said_day(match["m"])
        return resolve_month_day(month, _said_day(match["d"]), today), match.end()
    if match := _DOT_DATE.match(text, pos):
        return resolve_month_day(int(match["m"]), int(match["d"]), today), match.end()
    if match := _DAY_OF_MONTH.match(text, pos):
        return resolve_day_of_month(_said_day(match["d"]), today), match.end()
    return _match_spoken_day(text, today, pos)


def _match_spoken_day(text: str, today: dt.date, pos: int) -> tuple[dt.date, int] | None:
    """后天, 周五, 下周三, 周末, 月底, 下个月5号."""
    if match := _RELATIVE.match(text, pos):
        return add_days(today, RELATIVE_DAYS[match[0]]), match.end()
    if match := _WEEKDAY.match(text, pos):
        return resolve_weekday(WEEKDAYS[match["wd"]], today, _week(match["rel"])), match.end()
    if match := _WEEKEND.match(text, pos):
        return resolve_weekday(5, today, _week(match["rel"])), match.end()
    if match := _MONTH_END.match(text, pos):
        return month_end(today), match.end()
    if match := _NEXT_MONTH_DAY.match(text, pos):
        first = add_days(month_end(today), 1)
        return make_date(first.year, first.month, _said_day(match["d"])), match.end()
    return None


def _week(rel: str | None) -> Week:
    if not rel:
        return "nearest"
    return "next" if rel.startswith(NEXT_WORD) else "this"


def _said_day(said: str) -> int:
    return small_int(said) or 0


def month_end(today: dt.date) -> dt.date:
    """The last day of `today`'s month."""
    first_next = dt.date(today.year + today.month // 12, today.month % 12 + 1, 1)
    return first_next - dt.timedelta(days=1)


def _hour_in_period(hour: int, period: str | None) -> int | None:
    """The 24-hour hour for `hour` said with `period`, or None if they contradict."""
    if period in AFTERNOON:
        if 1 <= hour <= 11:
            return hour + 12
        return hour if 13 <= hour <= 23 or (hour == 12 and period == PM) else None
    if period == NOON:
        return hour + 12 if hour in (1, 2) else hour if hour in (11, 12) else None
    if period in MORNING and hour > 12:
        return None
    return hour


def match_time(text: str, pos: int = 0) -> TimeMatch | None:
    """A time starting at `pos` (`14:30`, `下午3点`, `9点半`), or None.

    Raises ParseError when it looks like a time but is not one (`24:00`, `9:75`).
    """
    match = _TIME.match(text, pos)
    if match is None:
        return None
    if match["hh"] == ONE and not (match["period"] or match["half"] or match["mm"]):
        return None  # 一点 alone is mostly "a little" (一点小事), not 1 o'clock
    said_hour = small_int(match["h"] or match["h4"] or match["hh"])
    said_minute = small_int(match["m"] or match["m4"] or match["mm"] or "0")
    minute = MINUTE_WORDS[match["half"]] if match["half"] else said_minute
    if said_hour is None or minute is None:
        raise ParseError(texts.invalid_time(match[0].strip()))
    hour = _hour_in_period(said_hour, match["period"])
    if hour is None or not 0 <= hour <= 23 or not 0 <= minute <= 59:
        raise ParseError(texts.invalid_time(match[0].strip()))
    period = match["period"]
    return TimeMatch(dt.time(hour, minute), match.end(), period, hour != said_hour)


def _match_range(text: str, pos: int) -> tuple[dt.time | None, dt.time | None, int]:
    """`14:00`, `14:00-15:00`, `下午2点到4点` at `pos`: start, end and where they ended."""
    first = match_time(text, pos)
    if first is None:
        return None, None, pos
    join = _RANGE_JOIN.match(text, first.end)
    second = match_time(text, join.end()) if join else None
    if second is None:
        return first.time, None, first.end
    end = second.time
    if first.shifted and second.period is None and 1 <= end.hour <= 11:
        end = end.replace(hour=end.hour + 12)
    return first.time, end, second.end


def match_when(text: str, today: dt.date) -> When:
    """Split `text` into leading day, `全天` or time (range), and the rest.

    Each part is optional; `rest` has outer separators stripped. 今晚/明早 give the
    day and the period of a time that follows (`明早8点` is 08:00 tomorrow).
    """
    if short := _SHORT_DAY.match(text):
        offset, period = SHORT_DAY_PERIODS[short[0]]
        rest = text[short.end() :].lstrip()
        start, end, pos = _match_range(period + rest, 0)
        if start is None:
            return When(add_days(today, offset), None, None, False, strip_separators(rest))
        rest = rest[pos - len(period) :]
        return When(add_days(today, offset), start, end, False, strip_separators(rest))
    found = match_day(text, today)
    day, pos = found if found else (None, 0)
    if day is not None and (before := _BEFORE.match(text, pos)):
        pos = before.end()  # 周五前 交报告: due on Friday
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if text.startswith(ALL_DAY, pos):
        return When(day, None, None, True, strip_separators(text[pos + 2 :]))
    start, end, end_pos = _match_range(text, pos)
    if start is not None and (before := _BEFORE.match(text, end_pos)):
        end_pos = before.end()  # 周五下午三点前 提交: due then
    if start is None and day is not None and (alone := _PERIOD_ALONE.match(text, pos)):
        # 12月8号 晚上 演唱会: a period word alone stands for its usual time
        return When(day, PERIOD_TIMES[alone[1]], None, False, strip_separators(text[alone.end() :]))
    return When(day, start, end, False, strip_separators(text[end_pos:]))
