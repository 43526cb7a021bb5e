"""The calendar feed's text (日历订阅): plain records in, an RFC 5545 calendar out.

Pure: no I/O, no clock (`now` is passed in). `bot.web.calendar` reads the records of
one member and serves what `calendar` returns; `handlers.calendar` hands out the
address. What goes in is chosen here and nowhere else:
- scheduled events (an all-day one as a date, a timed one in UTC);
- open tasks due at a time of day, as a moment (no duration);
- one-off custom reminders, at their next send time.
Only titles and times: no amount, no weight, no journal text is ever read for the
feed, so none can be in it. Everything starts within `WINDOW` of today (local days,
today included). Each item's UID is stable (`event-12@keeper`), so a phone updates
an item instead of adding it twice; `icalendar` escapes and folds the text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import icalendar

from handlers import texts
from scheduler.core.schedule import Schedule
from storage.records import EventRecord, RuleRecord, TaskRecord

WINDOW_DAYS = 90
PRODID = "-//keeper//calendar feed//ZH"
REFRESH = dt.timedelta(hours=1)
"""How often a calendar app is asked to fetch again (REFRESH-INTERVAL, X-PUBLISHED-TTL)."""
PUBLISHED_TTL = "PT1H"
UID_DOMAIN = "keeper"


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry:
    """One item of the feed: a stable id, a title, and when.

    `start` is an aware datetime, or a date for an all-day item; `end` likewise, or
    None for a moment."""

    uid: str
    title: str
    start: dt.datetime | dt.date
    end: dt.datetime | dt.date | None = None


def window(now: dt.datetime, tz: ZoneInfo) -> tuple[dt.date, dt.date]:
    """The local days the feed covers: today and the `WINDOW_DAYS` after it."""
    today = now.astimezone(tz).date()
    return today, today + dt.timedelta(days=WINDOW_DAYS)


def instants(first: dt.date, last: dt.date, tz: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """The window's days as UTC instants: from `first`'s local midnight up to (not
    including) the one after `last`."""
    start = dt.datetime.combine(first, dt.time(), tzinfo=tz).astimezone(dt.UTC)
    end = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(), tzinfo=tz)
    return start, end.astimezone(dt.UTC)


def entries(
    *,
    events: Iterable[EventRecord],
    tasks: Iterable[TaskRecord],
    reminders: Iterable[RuleRecord],
    tz: ZoneInfo,
    now: dt.datetime,
) -> list[Entry]:
    """The member's items inside the window, soonest first."""
    first, last = window(now, tz)
    found: list[Entry] = []
    for event in events:
        if first <= event.day <= last:
            found.append(_event(event))
    for task in tasks:
        if (
            task.due_date is not None
            and task.due_time is not None
            and first <= task.due_date <= last
        ):
            due = dt.datetime.combine(task.due_date, task.due_time, tzinfo=tz).astimezone(dt.UTC)
            found.append(
                Entry(uid=_uid("task", task.id), title=texts.CALENDAR_TASK + task.title, start=due)
            )
    for rule in reminders:
        at = rule.next_fire_at
        if at is None or not _once(rule.spec) or not first <= at.astimezone(tz).date() <= last:
            continue
        found.append(
            Entry(
                uid=_uid("reminder", rule.id),
                title=texts.CALENDAR_REMINDER + rule.label,
                start=at.astimezone(dt.UTC),
            )
        )
    return sorted(found, key=lambda e: (_sort_key(e.start, tz), e.uid))


def calendar(items: Iterable[Entry], now: dt.datetime) -> bytes:
    """The calendar as RFC 5545 text (CRLF lines, folded, escaped), UTF-8."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", texts.CALENDAR_NAME)
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", PUBLISHED_TTL)  # an X- property: its value as written
    stamp = now.astimezone(dt.UTC)
    for item in items:
        event = icalendar.Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp)
        event.add("summary", item.title)
        event.add("dtstart", item.start)
        if item.end is not None:
            event.add("dtend", item.end)
        cal.add_component(event)
    text: bytes = cal.to_ical()
    return text


def _event(event: EventRecord) -> Entry:
    uid = _uid("event", event.id)
    if event.starts_at is None:  # all day: a date, ending (exclusively) the next day
        return Entry(
            uid=uid, title=event.title, start=event.day, end=event.day + dt.timedelta(days=1)
        )
    start = event.starts_at.astimezone(dt.UTC)
    end = event.ends_at.astimezone(dt.UTC) if event.ends_at is not None else None
    return Entry(uid=uid, title=event.title, start=start, end=end if end and end > start else None)


def _once(spec: str) -> bool:
    try:
        return Schedule.from_json(spec).once_at is not None
    except ValueError:
        return False  # not this module's to judge: such a rule is set aside by the tick


def _uid(kind: str, item_id: int) -> str:
    return f"{kind}-{item_id}@{UID_DOMAIN}"


def _sort_key(start: dt.datetime | dt.date, tz: ZoneInfo) -> dt.datetime:
    if isinstance(start, dt.datetime):
        return start.astimezone(dt.UTC)
    return dt.datetime.combine(start, dt.time(), tzinfo=tz).astimezone(dt.UTC)
