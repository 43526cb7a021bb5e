"""When a custom reminder fires: the `Schedule` value and its occurrence maths (pure).

A schedule is either one wall-clock moment (`once_at`) or a set of APScheduler 3
`CronTrigger` fields (`cron`), both read in the user's time zone. `next_after` is the
only clock maths the scheduler needs; APScheduler is used as a calculator, never as
a job store (DESIGN §6).

The common shape, one fixed time on some days of the week (every digest, 每天, 工作日,
周末), is computed without CronTrigger (`_next_daily`): a tick plans up to a thousand
rules and CronTrigger's steps were most of its cost. The answers are the same (a test
compares both around every DST change); any other shape goes to CronTrigger.

Time zones and daylight saving, decided here:

- Cron fields are wall-clock rules ("22:00 every day" is 22:00 on the user's clock
  whatever the UTC offset that day). So the trigger runs on wall-clock time written as
  if it were UTC, where there is no DST, and each wall-clock candidate is placed in the
  user's zone afterwards. Running the trigger in the user's zone directly is not safe:
  APScheduler 3.11 returns the repeated hour of a fall-back day again and again.
- A wall-clock time that does not exist (02:30 on New York's spring-forward day) is read
  with the offset before the change, so it fires just after the gap (03:30 EDT); one
  that happens twice (01:30 on fall-back day) fires once, the first time. This matches
  `scheduler.core.water_rule`.
- Days that do not exist are skipped, never moved: 每月31号 fires only in months with
  a 31st, 每年2月29日 only in leap years (CronTrigger's own rule).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger

from scheduler.core.times import hm, md

# --- user-facing text (describe's words; to move into handlers/texts.py) ---
EVERY_DAY = "每天"
WORKDAYS = "工作日"
WEEKEND = "周末"
EVERY_WEEK = "每周"
EVERY_MONTH_LAST_DAY = "每月最后一天"
CUSTOM = "自定义"
WEEKDAY_NAMES = {"mon": "一", "tue": "二", "wed": "三", "thu": "四", "fri": "五", "sat": "六"}
WEEKDAY_NAMES |= {"sun": "日"}
# --- end of user-facing text ---

FIELDS = ("year", "month", "week", "day", "day_of_week", "hour", "minute")
"""The cron fields a schedule may use, in canonical order (no `second`: always 0)."""
REQUIRED_FIELDS = frozenset({"hour", "minute"})  # never "every second of Monday"

_UTC = ZoneInfo("UTC")
_WALL = _UTC  # wall-clock time is computed as if it were UTC: no gaps, no repeats
_EPSILON = dt.timedelta(microseconds=1)  # CronTrigger finds times >= now; we want >
_LOOK_BACK = dt.timedelta(hours=3)  # more than any DST shift, see `next_after`
_MAX_STEPS = 500
_ONE_DAY = dt.timedelta(days=1)
_DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # CronTrigger's, Monday first


@dataclass(frozen=True, kw_only=True, slots=True)
class Schedule:
    """When a custom reminder fires, in the user's local wall-clock time.

    Exactly one of `once_at` (a naive local date and time) and `cron` (APScheduler
    CronTrigger fields, e.g. `(("day_of_week", "mon-fri"), ("hour", "18"), ("minute",
    "0"))`) is set. `cron` is kept in the canonical order of `FIELDS`, so two schedules
    with the same fields are equal. Invalid values raise ValueError.
    """

    once_at: dt.datetime | None = None
    cron: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if (self.once_at is None) == (not self.cron):
            raise ValueError("a schedule has exactly one of once_at and cron")
        if self.once_at is not None:
            _check_once_at(self.once_at)
        else:
            object.__setattr__(self, "cron", _canonical_cron(self.cron))

    def to_json(self) -> str:
        """Stable JSON: `{"once_at": "2026-11-30T09:00:00"}` or `{"cron": {...}}`."""
        if self.once_at is not None:
            data: dict[str, object] = {"once_at": self.once_at.isoformat()}
        else:
            data = {"cron": dict(self.cron)}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Schedule:
        """The schedule `to_json` wrote; ValueError on anything malformed."""
        try:
            data = json.loads(text)  # JSONDecodeError is a ValueError
        except RecursionError:
            raise ValueError("a schedule is not nested that deep") from None
        if not isinstance(data, dict) or len(data) != 1:
            raise ValueError("a schedule is a JSON object with one key")
        if isinstance(once := data.get("once_at"), str):
            return cls(once_at=dt.datetime.fromisoformat(once))
        cron = data.get("cron")
        if not isinstance(cron, dict):
            raise ValueError("a schedule has once_at (a string) or cron (an object)")
        return cls(cron=tuple(cron.items()))


def _check_once_at(once_at: object) -> None:
    """A one-off is a naive datetime: the user's zone is applied when it is computed."""
    if not isinstance(once_at, dt.datetime) or once_at.tzinfo is not None:
        raise ValueError("once_at is a naive local date and time")


def _canonical_cron(cron: object) -> tuple[tuple[str, str], ...]:
    """`cron` checked (known string fields, hour and minute present, accepted by
    CronTrigger) and sorted into `FIELDS` order."""
    if not isinstance(cron, tuple) or not all(_is_field(item) for item in cron):
        raise ValueError(f"cron fields are (name, value) strings with names in {FIELDS}")
    fields = dict(cron)
    if len(fields) != len(cron) or not fields.keys() >= REQUIRED_FIELDS:
        raise ValueError("cron fields are unique and include hour and minute")
    ordered = tuple((name, fields[name]) for name in FIELDS if name in fields)
    _trigger(ordered)  # raises ValueError when CronTrigger refuses a value
    return ordered


def _is_field(item: object) -> bool:
    return (
        isinstance(item, tuple)
        and len(item) == 2
        and item[0] in FIELDS
        and isinstance(item[1], str)
        and item[1].strip() != ""
    )


@functools.lru_cache(maxsize=512)
def _trigger(cron: tuple[tuple[str, str], ...]) -> CronTrigger:
    """The wall-clock trigger for `cron` (cached: the tick computes the same rules often)."""
    try:
        return CronTrigger(timezone=_WALL, **dict(cron))
    except (ValueError, TypeError, KeyError) as error:
        raise ValueError(f"cron fields refused: {error}") from None


def next_after(schedule: Schedule, after: dt.datetime, tz: ZoneInfo) -> dt.datetime | None:
    """The first occurrence strictly after `after` (aware), as an aware UTC datetime.

    None when a one-off has passed, or when a cron schedule has no occurrence left
    (a `year` in the past). Raises ValueError for a naive `after`.
    """
    if after.tzinfo is None:
        raise ValueError("after must be an aware datetime")
    if schedule.once_at is not None:
        at = _local_to_utc(schedule.once_at, tz)
        return at if at > after else None
    daily = _daily(schedule.cron)
    if daily is not None:
        return _next_daily(*daily, after, tz)
    return _next_cron(_trigger(schedule.cron), after, tz)


@functools.lru_cache(maxsize=512)
def _daily(cron: tuple[tuple[str, str], ...]) -> tuple[dt.time, frozenset[int]] | None:
    """(the time, the weekdays) of a schedule that fires at one fixed time on some days
    of every week (每天, 工作日, 周末, 每周一三: what digests and most reminders are), or
    None for any other shape, which CronTrigger computes.

    Why: each CronTrigger step costs tens of microseconds and a daily rule takes two,
    so a tick planning 1,000 such rules spent most of its time in them.
    """
    fields = dict(cron)
    hour, minute = fields.pop("hour"), fields.pop("minute")
    if not (_plain_number(hour) and _plain_number(minute)) or fields.keys() - {"day_of_week"}:
        return None
    days = _weekdays(fields.get("day_of_week", "*"))
    if days is None or int(hour) > 23 or int(minute) > 59:
        return None
    return dt.time(int(hour), int(minute)), days


def _plain_number(value: str) -> bool:
    return value.isascii() and value.isdigit()


def _weekdays(value: str) -> frozenset[int] | None:
    """`*`, or names and name ranges such as `mon-fri,sun`, as weekday numbers (Monday
    0, as `date.weekday()`); None for any other spelling."""
    if value == "*":
        return frozenset(range(7))
    days: set[int] = set()
    for part in value.split(","):
        first, _, last = part.partition("-")
        if first not in _DAY_NAMES or (last and last not in _DAY_NAMES):
            return None
        start, end = _DAY_NAMES.index(first), _DAY_NAMES.index(last or first)
        if start > end:
            return None
        days.update(range(start, end + 1))
    return frozenset(days)


def _next_daily(at: dt.time, days: frozenset[int], after: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """The first of the days' wall-clock `at`, from yesterday on, that lands after `after`:
    the same answer as `_next_cron`'s walk. One candidate a day, so a DST shift (hours)
    never reorders them. Starting a day early covers yesterday's time when it fell in a
    gap that ended at midnight and so lands today, after `after` (no zone does that
    now; it costs one comparison)."""
    day = after.astimezone(tz).date() - _ONE_DAY
    for _ in range(9):  # yesterday, then at most 8 days reach any weekday twice
        if day.weekday() in days:
            candidate = _local_to_utc(dt.datetime.combine(day, at), tz)
            if candidate > after:
                return candidate
        day += _ONE_DAY
    raise AssertionError("unreachable: every weekday set is met within 8 days")


def _next_cron(trigger: CronTrigger, after: dt.datetime, tz: ZoneInfo) -> dt.datetime | None:
    """Walk wall-clock candidates until one lands after `after` in real time.

    The walk starts a few hours early on the wall clock: a spring-forward time such as
    02:30 lands at 03:30, later on the wall clock than 03:15, so starting at `after`'s
    own wall-clock time would miss it. Candidates that land at or before `after` (that
    one, or the first 01:30 seen again from the second pass of a fall-back hour) are
    passed over.
    """
    wall = after.astimezone(tz).replace(tzinfo=_WALL, fold=0) - _LOOK_BACK
    for _ in range(_MAX_STEPS):
        found: dt.datetime | None = trigger.get_next_fire_time(None, wall + _EPSILON)
        if found is None:
            return None
        wall = found
        at = _local_to_utc(found.replace(tzinfo=None), tz)
        if at > after:
            return at
    return None  # not reached: hour and minute are set, so the look-back holds <= 180 candidates


def _local_to_utc(local: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """Naive wall-clock time in `tz` -> UTC; a gap reads with the earlier offset, a
    repeated time is its first occurrence (fold=0)."""
    return local.replace(tzinfo=tz, fold=0).astimezone(_UTC)


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
