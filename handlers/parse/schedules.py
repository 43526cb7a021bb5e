"""`提醒 <when> <what>`: when a reminder fires, in plain Chinese -> `AddReminder`.

Recurrences (每天, 工作日, 每周X, 每月N号 ...) and one-offs (明天 9:00, 40分钟后);
the plain day and time words are `handlers.parse.when`'s. Pure and total.

The text is what follows the keyword, already normalised. The time rule comes first,
the title after it; `重要` anywhere (as its own word, or in brackets: `【重要】`) marks
the reminder important and is left out of the title (`重要会议` stays a title). A
leading `我` (`提醒我明天9点交材料`) and a leading `提醒我` / `叫我` in the title are
dropped. Titles hold at most 100 characters. `直到完成` (with `每N分钟`, `最多N次`)
makes a one-off reminder nag until the user answers (`handlers.parse.nag`).

Recurring rules (APScheduler cron fields, see `scheduler.core.schedule`):
- 每天 / 每日 / 天天; 每早 / 每晚 (also 每个晚上): daily, the latter with 早上 / 晚上.
- 工作日 / 每个工作日 (Mon-Fri); 每周末 / 每个周末 / 周末都 (Sat and Sun; a bare 周末 is the coming
  Saturday once).
- 每周X / 每星期X / 每礼拜X / 每个星期X, several days (每周一三五, 每周一、三、五,
  每周一和周三) and ranges (每周一至周五, 每周1-5). Without 每, only a list or a range
  is recurring (周一到周五); a single 周五 is the next Friday, once.
- 每月N号 (also 每月十五号, 每月1号和15号), 每月最后一天 / 每月底, 每月初 (the 1st).
  每月31号 fires only in months that have a 31st.
- 每年M月D日 / 每年M-D; 每年2月29日 fires only in leap years.

One-offs (a naive local datetime):
- Every day word of `handlers.parse.when` (今天, 明天, 后天, 周五, 下周一, 12-01, 12月1日,
  2027-01-05, 1号 ...), and 今早 / 今晚 / 明早 / 明晚; N天后 (a day, like 明天).
- N分钟后 / N小时后 / 半小时后 / 1个半小时后 / 2h后: that long after `now_local`,
  to the second, on the wall clock (so a DST change in between moves it by the change).
- A time alone (下午3点, 22:30): today, or tomorrow when today's has passed.
- Any other one-off at or before `now_local` is refused (texts.IN_THE_PAST).

Times are those of `handlers.parse.when.match_time`. A period word says the time when no
clock time follows (每天早上 -> 08:00, 明晚 -> 20:00, see `PERIOD_TIMES`); with no time
at all a reminder fires at 09:00 (`DEFAULT_TIME`): `每月1号 交房租` is 09:00 on the 1st.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass

from handlers import texts
from handlers.commands import AddReminder, Command, Confirm, ParseError
from handlers.parse.lexicon import CRON_WEEKDAYS as _CRON_WEEKDAYS
from handlers.parse.lexicon import DURATION_SECONDS as _SECONDS
from handlers.parse.lexicon import PERIOD_TIMES, WEEKENDS_OFF
from handlers.parse.lexicon import WEEKDAYS as _WEEKDAYS
from handlers.parse.nag import take_until_done
from handlers.parse.normalise import is_decoration, is_separator, strip_separators
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    AFTER_A_WHILE_AS_LATER,
    AFTER_A_WHILE_PATTERN,
    AT_LEAD_PATTERN,
    BARE_WEEKLY_PATTERN,
    CLOCK_IN_WHEN_PATTERN,
    DAILY_PATTERN,
    DAY_SAID_PATTERN,
    DAY_UNIT,
    DAYS_SAID_TWICE_PATTERN,
    EVERY,
    EVERY_OCCASION,
    EVERY_WEEK_TAIL_PATTERN,
    EVERY_WEEKEND,
    IMPORTANT_MARK_PATTERN,
    IMPORTANT_SAID_PATTERN,
    LATER_PATTERN,
    ME,
    MONTHLY_PATTERN,
    PERIOD_WORD_PATTERN,
    QUARTER_HOURS,
    RECUR_TAIL_PARTICLES,
    RECUR_TAIL_PATTERN,
    REMINDER_SELF_WORDS,
    SAID_DAILY_PATTERN,
    SCHEDULE_NUM,
    SECOND_TIME_PATTERN,
    SHORT_PERIODS,
    TITLE_JOINS,
    TITLE_LEAD_PATTERN,
    TODAY_PERIOD_PATTERN,
    TOMORROW_SHORT,
    WEEKDAY_NOT_EVERY_PATTERN,
    WEEKDAY_TOKEN_PATTERN,
    WEEKEND_RULE_PATTERN,
    WEEKLY_PATTERN,
    WORKDAY_RULE_PATTERN,
    WORKDAYS_WORD,
    YEARLY_PATTERN,
)
from handlers.parse.tasks import SAID_PERIOD
from handlers.parse.when import TimeMatch, add_days, make_date, match_day, match_time
from scheduler.core.schedule import Schedule

MAX_TITLE = 100
DEFAULT_TIME = dt.time(9, 0)
LATER_RANGE = (dt.timedelta(minutes=1), dt.timedelta(days=365))

_WORKDAYS = frozenset(range(5))

_IMPORTANT = re.compile(IMPORTANT_MARK_PATTERN)
_TITLE_LEAD = re.compile(TITLE_LEAD_PATTERN)
_DAILY = re.compile(DAILY_PATTERN)
_WORKDAY_RULE = re.compile(WORKDAY_RULE_PATTERN)
_WEEKEND_RULE = re.compile(WEEKEND_RULE_PATTERN)
_WEEKLY = re.compile(WEEKLY_PATTERN)
_WEEKDAY_TOKEN = re.compile(WEEKDAY_TOKEN_PATTERN)
_BARE_WEEKLY = re.compile(BARE_WEEKLY_PATTERN)
_MONTHLY = re.compile(MONTHLY_PATTERN)
_YEARLY = re.compile(YEARLY_PATTERN)
_TODAY_PERIOD = re.compile(TODAY_PERIOD_PATTERN)
_LATER = re.compile(
    LATER_PATTERN,
    re.IGNORECASE,
)
_PERIOD_WORD = re.compile(PERIOD_WORD_PATTERN)
_CLOCK_SAID = re.compile(CLOCK_IN_WHEN_PATTERN)
_NUMBER_IN = re.compile(SCHEDULE_NUM)

Fields = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class _Rule:
    """A recurring day rule at the start of the text: its cron day fields (empty for
    every day), the period word it implies (每晚 -> 晚上), and where it ended."""

    fields: Fields
    period: str | None
    end: int


_SECOND_TIME = re.compile(SECOND_TIME_PATTERN)
"""A second time said after the title (`…，晚上十点再提醒一次`): one rule per time."""
_AFTER_A_WHILE = re.compile(AFTER_A_WHILE_PATTERN)
_RECUR_TAIL = re.compile(RECUR_TAIL_PATTERN)

_AT_LEAD = re.compile(AT_LEAD_PATTERN)
_DAYS_SAID_TWICE = re.compile(DAYS_SAID_TWICE_PATTERN)
_EVERY_WEEK_TAIL = re.compile(EVERY_WEEK_TAIL_PATTERN)
_WEEKDAY_NOT_EVERY = re.compile(WEEKDAY_NOT_EVERY_PATTERN)


def _days_once(match: re.Match[str]) -> str:
    """The days of a `_DAYS_SAID_TWICE` match, said once (a weekend as every weekend)."""
    return EVERY_WEEKEND if match["weekend"] else match["said"]


def _time_at_start(text: str) -> TimeMatch | None:
    """The time `text` starts with, or None (a malformed one too)."""
    try:
        return match_time(text)
    except ParseError:
        return None


def _time_word(word: str) -> bool:
    found = _time_at_start(word)
    return found is not None and found.end == len(word)


def _time_first(text: str) -> bool:
    """Whether `text` starts with a time (`20:00 吃药`, `8点吃药`)."""
    return _time_at_start(text.lstrip()) is not None


def _recurrence_first(text: str) -> str:
    """`早上八点 吃早饭,每天` -> `每天 早上八点 吃早饭`: a recurrence said last still
    makes the reminder recur (it never ends up in the title of a one-off)."""
    text = _DAYS_SAID_TWICE.sub(_days_once, text)  # 周一到周五每天傍晚6点, 周末都
    text = text.replace(EVERY_OCCASION, EVERY)  # 每逢周一: every Monday
    text = _AT_LEAD.sub("", text)  # 在一个半小时后
    for quarters, minutes in QUARTER_HOURS.items():
        text = text.replace(quarters, minutes)  # 过一刻钟: 过15分钟
    text = _AFTER_A_WHILE.sub(AFTER_A_WHILE_AS_LATER, text)  # 过四十分钟: 四十分钟后
    match = _RECUR_TAIL.search(text)
    if match is None:
        weekly = _EVERY_WEEK_TAIL.search(text)
        if weekly is not None and (day := _WEEKDAY_NOT_EVERY.search(text)):
            # 周日 晚上九点 倒垃圾 每周: that weekday, every week
            said = text[: weekly.start()]
            return f"{said[: day.start()]}{EVERY}{said[day.start() :]}"
        return text
    body = text[: match.start()].strip().removeprefix(ME).strip()  # 提醒我早上八点…,每天
    words = [word for word in re.split(r"[\s,]+", body) if word]  # 吃钙片,晚上9点半,每天
    if len(words) > 1 and (_PERIOD_WORD.fullmatch(words[-1]) or _time_word(words[-1])):
        body = f"{words[-1]} {' '.join(words[:-1])}"  # 吃鱼油 中午,每天: 中午 said last
    tail = match["tail"]
    for particle in RECUR_TAIL_PARTICLES:
        tail = tail.removesuffix(particle)
    return f"{tail} {body} {match['important'] or ''}".rstrip()  # 每天都要提醒 重要


def parse_custom_reminder(text: str, *, now_local: dt.datetime) -> AddReminder:
    """Read `<when> <what>` (the text after `提醒`, normalised) into an AddReminder.

    `now_local` is the user's naive wall-clock time now: relative words resolve
    against it and one-offs must lie after it. Raises ParseError with the Chinese
    answer for any text it cannot read; a non-naive `now_local` is a caller bug
    (ValueError).
    """
    if now_local.tzinfo is not None:
        raise ValueError("now_local is the user's naive wall-clock time")
    body, important = _take_important(_recurrence_first(_weekends_off(text)))
    body, until_done = take_until_done(body)
    if (me := next((w for w in REMINDER_SELF_WORDS if body.startswith(w)), None)) is not None:
        body = strip_separators(body[len(me) :])
    schedule, end = _match_schedule(body, now_local)
    if (moved := _time_said_last(body, end)) is not None:
        body = moved  # 每天提醒我吃药 8点: the time said after the title
        schedule, end = _match_schedule(body, now_local)
    if until_done is not None and schedule.once_at is None:
        raise ParseError(texts.NAG_ONCE_ONLY)  # see `scheduler.core.nag`
    title = _title(body[end:])
    return AddReminder(title=title, schedule=schedule, important=important, until_done=until_done)


_WEEKENDS_OFF = re.compile("[,\\s]*(?:" + "|".join(map(re.escape, WEEKENDS_OFF)) + ")")
_SAID_DAILY = re.compile(SAID_DAILY_PATTERN)


def _weekends_off(text: str) -> str:
    """`每天早上八点 喝温水 除了周末` -> `工作日早上八点 喝温水`: a daily reminder
    with the weekends taken out is one on working days (other schedules keep theirs)."""
    found = _WEEKENDS_OFF.search(text)
    if found is None or _SAID_DAILY.match(text) is None:
        return text
    return _SAID_DAILY.sub(WORKDAYS_WORD, text[: found.start()] + text[found.end() :], count=1)


_IMPORTANT_SAID = re.compile(IMPORTANT_SAID_PATTERN)


def _take_important(text: str) -> tuple[str, bool]:
    text = "".join(" " if is_decoration(ch) else ch for ch in text)  # ⚠️重要
    text, said = _IMPORTANT_SAID.subn(" ", text)  # 这个很重要: of the reminder
    rest, marked = _take_marked_important(" ".join(text.split()))
    return strip_separators(rest), bool(said) or marked


def _take_marked_important(text: str) -> tuple[str, bool]:
    """The text without its `重要` marks, and whether there was one."""
    body, count = _IMPORTANT.subn(" ", text)
    return strip_separators(body), count > 0


def _time_said_last(body: str, end: int) -> str | None:
    """`body` with a time said after the title moved before it (`每天 吃药 8点` ->
    `每天 8点 吃药`), when the when read first holds no time; else None."""
    said, rest = body[:end], body[end:]
    words = [word for word in re.split(r"[\s,]+", rest) if word]
    if len(words) < 2 or not _time_word(words[-1]) or _CLOCK_SAID.search(said):
        return None
    if words[-1].isdigit() and not words[-1].startswith("0"):
        return None  # 交房租 1500: an amount in the title as likely as a time
    return f"{said} {words[-1]} {' '.join(words[:-1])}"


def _title(rest: str) -> str:
    """What is left after the time rule, tidied; ParseError when empty or too long."""
    title = strip_separators(rest)
    if lead := _TITLE_LEAD.match(title):
        title = strip_separators(title[lead.end() :])
    title = " ".join(title.split())
    if not title:
        raise ParseError(texts.NEEDS_TITLE)
    if title.startswith(TITLE_JOINS) and (_PERIOD_WORD.search(title) or _time_first(title[1:])):
        raise ParseError(texts.ONE_TIME_PER_REMINDER)  # 每天8点和晚上8点, 08:00和20:00: two
    if _SECOND_TIME.search(title):
        raise ParseError(texts.ONE_TIME_PER_REMINDER)  # 吃药,晚上十点再提醒一次: two rules
    if len(title) > MAX_TITLE:
        raise ParseError(texts.TITLE_TOO_LONG)
    return title


def _match_schedule(text: str, now: dt.datetime) -> tuple[Schedule, int]:
    """The time rule at the start of `text` and where it ended; tried from the most
    specific shape (每...) to the loosest (a bare time)."""
    if (rule := _match_rule(text)) is not None:
        clock, end = _match_clock(text, rule.end, rule.period)
        return _every(rule.fields, DEFAULT_TIME if clock is None else clock), end
    if (later := _match_later(text, now)) is not None:
        return Schedule(once_at=later[0]), later[1]
    if (day := _match_date(text, now.date())) is not None:
        date, period, end = day
        clock, end = _match_clock(text, end, period)
        at = dt.datetime.combine(date, DEFAULT_TIME if clock is None else clock)
        return _once(at, now), end
    clock, end = _match_clock(text, 0, None)
    if clock is None:
        raise ParseError(texts.UNKNOWN_REPEAT if text.startswith(EVERY) else texts.NEEDS_WHEN)
    return _once(_today_or_tomorrow(clock, now), now), end


def _every(fields: Fields, clock: dt.time) -> Schedule:
    return Schedule(cron=(*fields, ("hour", str(clock.hour)), ("minute", str(clock.minute))))


def _once(at: dt.datetime, now: dt.datetime) -> Schedule:
    """A one-off at `at`, refused when it is not in the future."""
    if at <= now:
        raise ParseError(texts.IN_THE_PAST)
    return Schedule(once_at=at)


def _today_or_tomorrow(clock: dt.time, now: dt.datetime) -> dt.datetime:
    """A bare time means the next time the clock shows it: today, else tomorrow."""
    at = dt.datetime.combine(now.date(), clock)
    return at if at > now else dt.datetime.combine(add_days(now.date(), 1), clock)


def _skip_separators(text: str, pos: int) -> int:
    while pos < len(text) and is_separator(text[pos]):
        pos += 1
    return pos


def _match_clock(text: str, pos: int, period: str | None) -> tuple[dt.time | None, int]:
    """A time at `pos` (`22:00`, `晚上10点半`, or a period word alone) and where it
    ended. `period` is one the day word implied (每晚, 明早): it applies to a time
    that has no period word of its own, and stands for the time when none follows."""
    pos = _skip_separators(text, pos)
    said = _PERIOD_WORD.match(text, pos)
    if period is not None and said is None:
        found = match_time(period + text[pos:])
        if found is not None:
            return found.time, pos + found.end - len(period)
        return PERIOD_TIMES[period], pos
    found = match_time(text, pos)
    if found is not None:
        return found.time, found.end
    if said is not None and said[0] in PERIOD_TIMES:
        return PERIOD_TIMES[said[0]], said.end()
    return None, pos


def _match_rule(text: str) -> _Rule | None:
    """A recurring day rule at the start of `text`, or None when it is not one."""
    for match_rule in (_match_daily, _match_weekdays, _match_monthly, _match_yearly):
        if (rule := match_rule(text)) is not None:
            return rule
    if _BARE_WEEKLY.match(text):
        raise ParseError(texts.WEEKDAY_MISSING)
    return None


def _match_daily(text: str) -> _Rule | None:
    """每天 / 每日 / 天天 / 每早 / 每晚 (也 每个晚上)."""
    if (match := _DAILY.match(text)) is None:
        return None
    return _Rule((), SHORT_PERIODS.get(match["p"] or ""), match.end())


def _match_weekdays(text: str) -> _Rule | None:
    """工作日, 周末, 每周X, 每周一三五, 周一到周五 (a lone 周五 is a one-off)."""
    if match := _WORKDAY_RULE.match(text):
        return _Rule(_weekday_fields(_WORKDAYS), None, match.end())
    if match := _WEEKEND_RULE.match(text):
        return _Rule(_weekday_fields(frozenset({5, 6})), None, match.end())
    match = _WEEKLY.match(text)
    if match is None:
        return None
    if not match["every"] and len(match["days"]) == 1:
        return None
    return _Rule(_weekday_fields(_weekdays(match["days"])), None, match.end())


def _weekdays(said: str) -> frozenset[int]:
    """`一三五` -> {0, 2, 4}; `一至五` and `1-5` are ranges (`五到一` wraps the weekend)."""
    chosen: set[int] = set()
    previous: int | None = None
    for token in _WEEKDAY_TOKEN.finditer(said):
        day = _WEEKDAYS[token["day"]]
        if token["to"] and previous is not None:
            chosen.update((previous + step) % 7 for step in range((day - previous) % 7))
        chosen.add(day)
        previous = day
    return frozenset(chosen)


def _weekday_fields(days: frozenset[int]) -> Fields:
    """Cron `day_of_week`: `mon-fri` for workdays, names otherwise, none for all seven."""
    if len(days) == 7:
        return ()
    if days == _WORKDAYS:
        return (("day_of_week", "mon-fri"),)
    return (("day_of_week", ",".join(_CRON_WEEKDAYS[day] for day in sorted(days))),)


def _match_monthly(text: str) -> _Rule | None:
    """每月1号, 每月十五号, 每月1号和15号, 每月最后一天 / 每月底, 每月初."""
    if (match := _MONTHLY.match(text)) is None:
        return None
    if match["last"]:
        return _Rule((("day", "last"),), None, match.end())
    if match["first"]:
        return _Rule((("day", "1"),), None, match.end())
    days = sorted({_month_day(said) for said in _NUMBER_IN.findall(match["days"])})
    return _Rule((("day", ",".join(map(str, days))),), None, match.end())


def _month_day(said: str) -> int:
    day = small_int(said)
    if day is None or not 1 <= day <= 31:
        raise ParseError(texts.INVALID_MONTH_DAY)
    return day


def _match_yearly(text: str) -> _Rule | None:
    """每年3月8日 / 每年三月八日 / 每年3-8; the day must exist in a leap year."""
    if (match := _YEARLY.match(text)) is None:
        return None
    month, day = small_int(match["m"]), small_int(match["d"] or match["dd"])
    if month is None or day is None:
        raise ParseError(texts.UNKNOWN_REPEAT)
    make_date(2000, month, day)  # 2000 is a leap year: 2月29日 exists, 2月30日 does not
    return _Rule((("month", str(month)), ("day", str(day))), None, match.end())


def _match_later(text: str, now: dt.datetime) -> tuple[dt.datetime, int] | None:
    """`30分钟后`, `2小时后`, `1个半小时后`: that moment (N天后 is a day: `_match_date`)."""
    match = _LATER.match(text)
    if match is None or _whole_days(match) is not None:
        return None
    unit = _SECONDS[match["unit"].lower()]
    count = small_int(match["n"]) if match["n"] else 0
    if count is None:
        raise ParseError(texts.LATER_OUT_OF_RANGE)
    half = unit // 2 if match["half"] or match["only_half"] else 0
    later = dt.timedelta(seconds=count * unit + half)
    if not LATER_RANGE[0] <= later <= LATER_RANGE[1]:
        raise ParseError(texts.LATER_OUT_OF_RANGE)
    try:
        return (now + later).replace(microsecond=0), match.end()
    except OverflowError:
        raise ParseError(texts.LATER_OUT_OF_RANGE) from None


def _whole_days(match: re.Match[str]) -> int | None:
    """N in `N天后`, or None when the unit is not whole days."""
    if match["unit"] != DAY_UNIT or match["half"] or match["only_half"]:
        return None
    return small_int(match["n"]) if match["n"] else None


def _match_date(text: str, today: dt.date) -> tuple[dt.date, str | None, int] | None:
    """A one-off day (今晚, 3天后, or any `handlers.parse.when` day), its implied period
    word, and where it ended."""
    if match := _TODAY_PERIOD.match(text):
        tomorrow = match["day"] == TOMORROW_SHORT
        return add_days(today, int(tomorrow)), SHORT_PERIODS[match["p"]], match.end()
    if (match := _LATER.match(text)) and (days := _whole_days(match)) is not None:
        if not 1 <= days <= LATER_RANGE[1].days:
            raise ParseError(texts.LATER_OUT_OF_RANGE)
        return add_days(today, days), None, match.end()
    if found := match_day(text, today):
        return found[0], None, found[1]
    return None


_DAY_SAID = re.compile(DAY_SAID_PATTERN)


def afternoon_asked(command: Command, said: str, now_local: dt.datetime) -> Command:
    """A reminder at 1-6 o'clock said without 上午/下午/凌晨 (`三点半提醒我去拿样`,
    `提醒我3点去接孩子`) is asked, guessing the afternoon: today while still ahead,
    else the day said; a recurring one at that hour too (`每天三点…`: 15:00)."""
    if not isinstance(command, AddReminder) or SAID_PERIOD.search(said):
        return command
    at = command.schedule.once_at
    cron = dict(command.schedule.cron)
    if at is None and cron.get("hour", "").isdigit() and 1 <= int(cron["hour"]) <= 6:
        cron["hour"] = str(int(cron["hour"]) + 12)
        return Confirm(
            guess=dataclasses.replace(command, schedule=Schedule(cron=tuple(cron.items())))
        )
    if at is None or not 1 <= at.hour <= 6:
        return command
    later = at.replace(hour=at.hour + 12)
    today_at = later.replace(year=now_local.year, month=now_local.month, day=now_local.day)
    if _DAY_SAID.search(said) is None and today_at > now_local:
        later = today_at  # 三点半: this afternoon, while it is still ahead
    return Confirm(guess=dataclasses.replace(command, schedule=Schedule(once_at=later)))
