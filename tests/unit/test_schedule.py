"""The custom-reminder schedule: occurrences, DST, JSON and labels (scheduler/core/schedule.py)."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler.core.schedule import Schedule, _daily, _next_cron, _trigger, describe, next_after

UTC = ZoneInfo("UTC")
SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
D = dt.datetime  # aware with tzinfo=...; naive only as once_at, wall-clock by design


def utc(y: int, m: int, d: int, hh: int = 0, mm: int = 0, ss: int = 0) -> dt.datetime:
    return dt.datetime(y, m, d, hh, mm, ss, tzinfo=UTC)


def cron(**fields: str) -> Schedule:
    return Schedule(cron=tuple(fields.items()))


DAILY_2200 = cron(hour="22", minute="0")
WORKDAYS_1800 = cron(day_of_week="mon-fri", hour="18", minute="0")
LAST_DAY_2000 = cron(day="last", hour="20", minute="0")
ON_31ST = cron(day="31", hour="9", minute="0")
LEAP_DAY = cron(month="2", day="29", hour="9", minute="0")


def occurrences(schedule: Schedule, after: dt.datetime, tz: ZoneInfo, count: int) -> list[str]:
    """The next `count` occurrences as local ISO strings with their offsets."""
    found: list[str] = []
    for _ in range(count):
        at = next_after(schedule, after, tz)
        if at is None:
            break
        found.append(at.astimezone(tz).isoformat())
        after = at
    return found


@pytest.mark.parametrize(
    ("schedule", "after", "tz", "expected"),
    [
        (
            DAILY_2200,
            D(2026, 11, 29, 10, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2026-11-29T22:00:00+08:00", "2026-11-30T22:00:00+08:00", "2026-12-01T22:00:00+08:00"],
        ),
        (
            DAILY_2200,
            D(2026, 11, 29, 22, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2026-11-30T22:00:00+08:00", "2026-12-01T22:00:00+08:00"],
        ),
        (
            DAILY_2200,
            D(2026, 11, 29, 21, 59, 59, 999999, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2026-11-29T22:00:00+08:00"],
        ),
        (
            WORKDAYS_1800,
            D(2026, 11, 27, 18, 30, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2026-11-30T18:00:00+08:00", "2026-12-01T18:00:00+08:00"],
        ),
        (
            LAST_DAY_2000,
            D(2027, 1, 31, 20, tzinfo=UTC),
            UTC,
            ["2027-02-28T20:00:00+00:00", "2027-03-31T20:00:00+00:00", "2027-04-30T20:00:00+00:00"],
        ),
        (
            LAST_DAY_2000,
            D(2028, 2, 1, tzinfo=UTC),
            UTC,
            ["2028-02-29T20:00:00+00:00"],
        ),
        (
            ON_31ST,
            D(2027, 1, 31, 10, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2027-03-31T09:00:00+08:00", "2027-05-31T09:00:00+08:00", "2027-07-31T09:00:00+08:00"],
        ),
        (
            LEAP_DAY,
            D(2026, 11, 29, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2028-02-29T09:00:00+08:00", "2032-02-29T09:00:00+08:00"],
        ),
        (
            cron(day_of_week="sat,sun", hour="10", minute="0"),
            D(2026, 11, 29, 10, tzinfo=SHANGHAI),
            SHANGHAI,
            ["2026-12-05T10:00:00+08:00", "2026-12-06T10:00:00+08:00"],
        ),
        (
            cron(year="2027", month="1", day="1", hour="0", minute="0"),
            D(2026, 12, 31, 12, tzinfo=UTC),
            UTC,
            ["2027-01-01T00:00:00+00:00"],
        ),
    ],
)
def test_a_cron_schedule_fires_at_its_next_wall_clock_times(
    schedule: Schedule, after: dt.datetime, tz: ZoneInfo, expected: list[str]
) -> None:
    assert occurrences(schedule, after, tz, len(expected)) == expected


@pytest.mark.parametrize(
    ("schedule", "after", "expected"),
    [
        # spring forward, 2026-03-08: 09:00 keeps its wall-clock time, the offset changes
        (
            cron(hour="9", minute="0"),
            utc(2026, 3, 7, 15),
            ["2026-03-08T09:00:00-04:00", "2026-03-09T09:00:00-04:00"],
        ),
        # 02:30 does not exist that day: it fires just after the gap
        (
            cron(hour="2", minute="30"),
            utc(2026, 3, 7, 12),
            ["2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"],
        ),
        # ... even when asked from inside the hour after the gap (03:15 EDT)
        (cron(hour="2", minute="30"), utc(2026, 3, 8, 7, 15), ["2026-03-08T03:30:00-04:00"]),
        # fall back, 2026-11-01: 01:30 happens twice and fires once, the first time
        (
            cron(hour="1", minute="30"),
            utc(2026, 10, 31, 12),
            ["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00", "2026-11-03T01:30:00-05:00"],
        ),
        # asked during the second 01:00-02:00 (01:10 EST): today's 01:30 was the first pass
        (cron(hour="1", minute="30"), utc(2026, 11, 1, 6, 10), ["2026-11-02T01:30:00-05:00"]),
        (
            cron(day_of_week="sun", hour="20", minute="0"),
            utc(2026, 10, 31),
            ["2026-11-01T20:00:00-05:00", "2026-11-08T20:00:00-05:00"],
        ),
    ],
)
def test_new_york_reminders_keep_their_wall_clock_time_across_daylight_saving(
    schedule: Schedule, after: dt.datetime, expected: list[str]
) -> None:
    assert occurrences(schedule, after, NEW_YORK, len(expected)) == expected


DST_ZONES = [
    "America/New_York",
    "Europe/London",
    "Australia/Lord_Howe",  # a half-hour shift
    "America/Santiago",  # shifts at midnight
    "Asia/Shanghai",
]
WEEKLY_SPELLINGS = ["*", "mon-fri", "sat,sun", "mon,wed,fri", "sun", "tue-thu,sat"]


@settings(max_examples=400, deadline=None)
@given(
    after=st.datetimes(min_value=D(2024, 1, 1), max_value=D(2030, 12, 31), timezones=st.just(UTC)),
    zone=st.sampled_from(DST_ZONES),
    days=st.sampled_from(WEEKLY_SPELLINGS),
    hour=st.sampled_from([0, 1, 2, 3, 9, 22, 23]),
    minute=st.sampled_from([0, 15, 30, 59]),
)
def test_the_daily_shortcut_gives_the_same_time_as_cron_trigger(
    after: dt.datetime, zone: str, days: str, hour: int, minute: int
) -> None:
    """Fixed-time weekly schedules skip CronTrigger (speed); around every DST change
    they must fire exactly when the trigger walk would have."""
    fields = {"day_of_week": days} if days != "*" else {}
    schedule = cron(**fields, hour=str(hour), minute=f"{minute:02d}")
    tz = ZoneInfo(zone)
    assert _daily(schedule.cron) is not None  # the shortcut is what is tested
    assert next_after(schedule, after, tz) == _next_cron(_trigger(schedule.cron), after, tz)


def _offset_changes(zone: ZoneInfo, year: int) -> list[dt.datetime]:
    """The UTC hours in `year` at which `zone`'s offset changes."""
    hours = [utc(year, 1, 1) + dt.timedelta(hours=h) for h in range(366 * 24)]
    return [
        b
        for a, b in itertools.pairwise(hours)
        if a.astimezone(zone).utcoffset() != b.astimezone(zone).utcoffset()
    ]


@pytest.mark.parametrize("zone", [ZoneInfo(name) for name in DST_ZONES[:4]])
def test_the_daily_shortcut_agrees_with_cron_trigger_all_around_each_dst_change(
    zone: ZoneInfo,
) -> None:
    """Every wall-clock half hour as the time, asked every half hour from 6 h before
    to 6 h after each of the year's offset changes."""
    changes = _offset_changes(zone, 2026)
    schedules = [cron(hour=str(h), minute=m) for h in range(24) for m in ("0", "30")]
    disagree = [
        (schedule.cron, after)
        for change in changes
        for after in (change + dt.timedelta(minutes=30 * k) for k in range(-12, 13))
        for schedule in schedules
        if next_after(schedule, after, zone) != _next_cron(_trigger(schedule.cron), after, zone)
    ]
    assert len(changes) == 2
    assert disagree == []


@pytest.mark.parametrize(
    "schedule",
    [
        LAST_DAY_2000,
        ON_31ST,
        LEAP_DAY,
        cron(day_of_week="0-4", hour="9", minute="0"),
        cron(day_of_week="MON", hour="9", minute="0"),
        cron(hour="*/2", minute="0"),
        cron(hour="9-10", minute="0"),
        cron(hour="9", minute="0,30"),
    ],
)
def test_other_shapes_are_left_to_cron_trigger(schedule: Schedule) -> None:
    assert _daily(schedule.cron) is None


def test_next_after_answers_in_utc_whatever_zone_it_was_asked_in() -> None:
    after = D(2026, 11, 29, 10, tzinfo=NEW_YORK)
    at = next_after(DAILY_2200, after, SHANGHAI)
    assert at == utc(2026, 11, 30, 14)
    assert at is not None
    assert at.utcoffset() == dt.timedelta(0)


@pytest.mark.parametrize(
    ("once_at", "after", "tz", "expected"),
    [
        (D(2026, 11, 30, 9), utc(2026, 11, 29, 2), SHANGHAI, utc(2026, 11, 30, 1)),
        (D(2026, 11, 30, 9), utc(2026, 11, 30, 0, 59, 59), SHANGHAI, utc(2026, 11, 30, 1)),
        (D(2026, 11, 30, 9), utc(2026, 11, 30, 1), SHANGHAI, None),
        (D(2026, 11, 30, 9), utc(2027, 1, 1), SHANGHAI, None),
        (D(2026, 3, 8, 2, 30), utc(2026, 3, 1), NEW_YORK, utc(2026, 3, 8, 7, 30)),
        (D(2026, 11, 1, 1, 30), utc(2026, 10, 1), NEW_YORK, utc(2026, 11, 1, 5, 30)),
        (D(2026, 11, 30, 9), utc(2026, 11, 29), UTC, utc(2026, 11, 30, 9)),
    ],
)
def test_a_one_off_fires_once_and_then_never_again(
    once_at: dt.datetime, after: dt.datetime, tz: ZoneInfo, expected: dt.datetime | None
) -> None:
    assert next_after(Schedule(once_at=once_at), after, tz) == expected


def test_next_after_refuses_a_naive_moment() -> None:
    with pytest.raises(ValueError, match="aware"):
        next_after(DAILY_2200, D(2026, 11, 29, 10), SHANGHAI)


def test_cron_fields_are_kept_in_one_order_so_equal_rules_compare_equal() -> None:
    shuffled = Schedule(cron=(("minute", "0"), ("hour", "18"), ("day_of_week", "mon-fri")))
    assert shuffled == WORKDAYS_1800
    assert shuffled.cron == (("day_of_week", "mon-fri"), ("hour", "18"), ("minute", "0"))


@pytest.mark.parametrize(
    "schedule",
    [
        DAILY_2200,
        WORKDAYS_1800,
        LAST_DAY_2000,
        LEAP_DAY,
        cron(day="1,15", hour="10", minute="30"),
        Schedule(once_at=D(2026, 11, 30, 9)),
        Schedule(once_at=D(2026, 11, 29, 10, 30, 15)),
    ],
)
def test_a_schedule_survives_a_trip_through_json(schedule: Schedule) -> None:
    text = schedule.to_json()
    assert Schedule.from_json(text) == schedule
    assert Schedule.from_json(text).to_json() == text


def test_the_json_is_small_and_readable() -> None:
    assert WORKDAYS_1800.to_json() == '{"cron":{"day_of_week":"mon-fri","hour":"18","minute":"0"}}'
    assert Schedule(once_at=D(2026, 11, 30, 9)).to_json() == '{"once_at":"2026-11-30T09:00:00"}'


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        "{}",
        "not json",
        '"once_at"',
        '{"once_at": "tomorrow"}',
        '{"once_at": 1764464400}',
        '{"once_at": "2026-11-30T09:00:00+08:00"}',
        '{"once_at": "2026-11-30T09:00:00", "cron": {"hour": "9", "minute": "0"}}',
        '{"once_at": "2026-11-30T09:00:00", "note": "x"}',
        '{"cron": {}}',
        '{"cron": []}',
        '{"cron": [["hour", "9"], ["minute", "0"]]}',
        '{"cron": {"day_of_week": "mon"}}',
        '{"cron": {"hour": "9"}}',
        '{"cron": {"hour": 9, "minute": 0}}',
        '{"cron": {"hour": "25", "minute": "0"}}',
        '{"cron": {"hour": "9", "minute": "0", "second": "*"}}',
        '{"cron": {"hour": "9", "minute": "0", "timezone": "UTC"}}',
        '{"cron": {"hour": "9", "minute": "0", "day_of_week": "someday"}}',
        '{"cron": {"hour": "9", "minute": ""}}',
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_from_json_rejects_anything_malformed(text: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- any ValueError: the message is for logs
        Schedule.from_json(text)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Schedule(),
        lambda: Schedule(once_at=D(2026, 11, 30, 9), cron=(("hour", "9"), ("minute", "0"))),
        lambda: Schedule(once_at=D(2026, 11, 30, 9, tzinfo=UTC)),
        lambda: Schedule(once_at=dt.date(2026, 11, 30)),  # type: ignore[arg-type]
        lambda: Schedule(cron=(("hour", "9"), ("hour", "10"), ("minute", "0"))),
        lambda: Schedule(cron=(("hour", "9"),)),
        lambda: Schedule(cron=(("hour", "9", "x"), ("minute", "0"))),  # type: ignore[arg-type]
    ],
)
def test_a_schedule_has_exactly_one_valid_rule(make: Callable[[], Schedule]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- any ValueError: the message is for logs
        make()


@pytest.mark.parametrize(
    ("schedule", "label"),
    [
        (DAILY_2200, "每天 22:00"),
        (cron(day_of_week="mon", hour="9", minute="0"), "每周一 09:00"),
        (cron(day_of_week="mon,wed,fri", hour="8", minute="0"), "每周一、三、五 08:00"),
        (cron(day_of_week="sun", hour="20", minute="5"), "每周日 20:05"),
        (WORKDAYS_1800, "工作日 18:00"),
        (cron(day_of_week="sat,sun", hour="10", minute="0"), "周末 10:00"),
        (cron(day="1", hour="9", minute="0"), "每月1号 09:00"),
        (cron(day="1,15", hour="10", minute="30"), "每月1号、15号 10:30"),
        (LAST_DAY_2000, "每月最后一天 20:00"),
        (cron(month="3", day="8", hour="9", minute="0"), "每年3月8日 09:00"),
        (Schedule(once_at=D(2026, 11, 30, 9)), "11月30日 09:00"),
        (Schedule(once_at=D(2027, 1, 5, 8, 0, 30)), "1月5日 08:00"),
        (cron(hour="8,20", minute="0"), "自定义 hour=8,20 minute=0"),
        (cron(week="1", hour="9", minute="0"), "自定义 week=1 hour=9 minute=0"),
        (
            cron(day_of_week="mon-wed", hour="9", minute="0"),
            "自定义 day_of_week=mon-wed hour=9 minute=0",
        ),
    ],
)
def test_describe_gives_a_short_chinese_label(schedule: Schedule, label: str) -> None:
    assert describe(schedule) == label
