"""The calendar feed's composition (handlers.calendar_feed) and how it is asked for
(handlers.parse.calendar_feed): pure, no I/O. Every feed is read back with the
`icalendar` parser, as a phone's calendar would."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from handlers import calendar_feed as cf
from handlers import texts
from handlers.commands import ParseError, SubscribeCalendar
from handlers.parse import parse
from scheduler.core.schedule import Schedule
from storage.records import EventRecord, RuleRecord, TaskRecord

TZ = ZoneInfo("Asia/Shanghai")
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)  # Wednesday 10:00 in Shanghai
TODAY = dt.date(2026, 11, 25)


def event(
    event_id: int, day: dt.date, title: str = "复诊", at: dt.time | None = dt.time(14)
) -> EventRecord:
    start = dt.datetime.combine(day, at, tzinfo=TZ) if at is not None else None
    end = start + dt.timedelta(hours=1) if start is not None else None
    return EventRecord(
        id=event_id, title=title, day=day, starts_at=start, ends_at=end, status="scheduled"
    )


def task(
    task_id: int, due: dt.date | None, at: dt.time | None, title: str = "交材料"
) -> TaskRecord:
    return TaskRecord(id=task_id, number=1, title=title, due_date=due, due_time=at, status="open")


def reminder(
    rule_id: int, at: dt.datetime, *, once: bool = True, label: str = "关烤箱"
) -> RuleRecord:
    local = at.astimezone(TZ).replace(tzinfo=None)
    schedule = (
        Schedule(once_at=local)
        if once
        else Schedule(cron=(("hour", str(local.hour)), ("minute", str(local.minute))))
    )
    return RuleRecord(
        id=rule_id, user_id=1, kind="custom", status="active", policy="at_most_once",
        priority="normal", channel="wecom_app", next_fire_at=at, spec=schedule.to_json(),
        label=label,
    )  # fmt: skip


def feed(
    events: list[EventRecord] = [],  # noqa: B006 - read only
    tasks: list[TaskRecord] = [],  # noqa: B006
    reminders: list[RuleRecord] = [],  # noqa: B006
) -> icalendar.Calendar:
    items = cf.entries(events=events, tasks=tasks, reminders=reminders, tz=TZ, now=NOW)
    return icalendar.Calendar.from_ical(cf.calendar(items, NOW))


def vevents(cal: icalendar.Calendar) -> list[icalendar.Event]:
    return [c for c in cal.walk("VEVENT")]


def test_the_feed_is_a_valid_calendar_with_the_required_properties() -> None:
    cal = feed(
        [event(1, TODAY)], [task(2, TODAY, dt.time(18))], [reminder(3, NOW + dt.timedelta(hours=1))]
    )
    assert cal["VERSION"] == "2.0"
    assert str(cal["PRODID"]) == cf.PRODID
    assert str(cal["X-WR-CALNAME"]) == texts.CALENDAR_NAME
    for item in vevents(cal):
        for required in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            assert required in item, (required, item)
        assert item.decoded("DTSTAMP") == NOW
    assert [str(e["UID"]) for e in vevents(cal)] == [
        "reminder-3@keeper", "event-1@keeper", "task-2@keeper",
    ]  # fmt: skip


def test_times_are_in_utc_and_an_all_day_event_is_a_date() -> None:
    cal = feed([event(1, TODAY, at=dt.time(14)), event(2, TODAY, at=None)])
    timed, all_day = sorted(vevents(cal), key=lambda e: str(e["UID"]))
    assert timed.decoded("DTSTART") == dt.datetime(2026, 11, 25, 6, tzinfo=dt.UTC)
    assert timed.decoded("DTEND") == dt.datetime(2026, 11, 25, 7, tzinfo=dt.UTC)
    assert "DTSTART:20261125T060000Z" in timed.to_ical().decode()
    assert all_day.decoded("DTSTART") == TODAY
    assert all_day.decoded("DTEND") == TODAY + dt.timedelta(days=1)


def test_a_task_due_at_a_time_is_a_moment_in_utc() -> None:
    (item,) = vevents(feed(tasks=[task(7, dt.date(2026, 11, 26), dt.time(9, 30))]))
    assert item.decoded("DTSTART") == dt.datetime(2026, 11, 26, 1, 30, tzinfo=dt.UTC)
    assert "DTEND" not in item
    assert str(item["SUMMARY"]) == texts.CALENDAR_TASK + "交材料"


@pytest.mark.parametrize(
    "title",
    ["开会, 带电脑; 第\\二版", "换行\n之后", "引号\"和'撇号", "很长的标题" * 30, "emoji 🎉"],
)
def test_text_is_escaped_and_reads_back_the_same(title: str) -> None:
    raw = cf.calendar(
        cf.entries(events=[event(1, TODAY, title=title)], tasks=[], reminders=[], tz=TZ, now=NOW),
        NOW,
    )
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))  # folded in octets
    (item,) = vevents(icalendar.Calendar.from_ical(raw))
    assert str(item["SUMMARY"]) == title


@pytest.mark.parametrize(
    ("day", "shown"),
    [
        (TODAY - dt.timedelta(days=1), False),  # yesterday
        (TODAY, True),
        (TODAY + dt.timedelta(days=90), True),  # the last day of the window
        (TODAY + dt.timedelta(days=91), False),
    ],
)
def test_the_window_is_today_and_the_next_ninety_days_for_every_kind(
    day: dt.date, shown: bool
) -> None:
    at = dt.datetime.combine(day, dt.time(12), tzinfo=TZ)
    cal = feed([event(1, day)], [task(2, day, dt.time(12))], [reminder(3, at)])
    assert len(vevents(cal)) == (3 if shown else 0)


def test_only_one_off_reminders_and_timed_tasks_are_in_it() -> None:
    soon = NOW + dt.timedelta(hours=2)
    cal = feed(
        tasks=[task(1, TODAY, None), task(2, None, None), task(3, TODAY, dt.time(20))],
        reminders=[reminder(4, soon, once=False, label="吃药"), reminder(5, soon)],
    )
    assert sorted(str(e["UID"]) for e in vevents(cal)) == ["reminder-5@keeper", "task-3@keeper"]


def test_uids_are_stable_and_distinct_across_kinds() -> None:
    args = (
        [event(1, TODAY)],
        [task(1, TODAY, dt.time(12))],
        [reminder(1, NOW + dt.timedelta(hours=1))],
    )
    first = [str(e["UID"]) for e in vevents(feed(*args))]
    later = cf.entries(
        events=args[0], tasks=args[1], reminders=args[2], tz=TZ, now=NOW + dt.timedelta(minutes=5)
    )
    assert first == [e.uid for e in later]
    assert len(set(first)) == 3


def test_an_empty_feed_is_still_a_calendar() -> None:
    cal = feed()
    assert vevents(cal) == []
    assert cal["VERSION"] == "2.0"


def test_the_feed_carries_only_titles_and_times() -> None:
    """No amount, weight or journal can be in it: the only text is the titles given."""
    cal = feed([event(1, TODAY, title="复诊")], [task(2, TODAY, dt.time(18), title="交材料")])
    properties = {name for item in vevents(cal) for name in item}
    assert properties == {"UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"}
    summaries = {str(item["SUMMARY"]) for item in vevents(cal)}
    assert summaries == {"复诊", texts.CALENDAR_TASK + "交材料"}


# --- how it is asked for ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reset"),
    [
        ("日历订阅", False),
        ("订阅日历", False),
        ("给我日历链接", False),
        ("我想在手机日历里看日程", False),
        ("日程订阅", False),
        ("怎么把日程同步到手机日历", False),
        ("日历订阅 重置", True),
        ("重置日历订阅", True),
        ("换一个日历订阅地址", True),
        ("日历订阅地址泄露了", True),
    ],
)
def test_the_ways_to_ask_for_the_feed(text: str, reset: bool) -> None:
    assert parse(text, today=TODAY) == SubscribeCalendar(reset=reset)


@pytest.mark.parametrize(
    "text",
    ["提醒 明天 看手机日历", "日程 周五 订阅杂志", "日程 明天 15:00 开会", "日历", "取消日历订阅"],
)
def test_a_reminder_or_event_that_mentions_a_calendar_is_not_the_feed(text: str) -> None:
    said: object
    try:
        said = parse(text, today=TODAY)
    except ParseError as miss:  # a miss is fine too: only the feed would be wrong
        said = miss
    assert not isinstance(said, SubscribeCalendar)
