"""The pure parts of reminder rules: their defaults and times (no I/O).

Shared by the tick's kinds (`scheduler.reminder_kinds`) and the conversation's rule
writer (`services.rules`), so both compute a reminder's time the same way.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from scheduler.core.schedule import Schedule
from storage.records import EventRecord, RuleRecord, TaskRecord
from storage.vocabulary import RuleKind

DIGESTS = (RuleKind.DIGEST_MORNING, RuleKind.DIGEST_EVENING)
DEFAULT_DIGEST_TIMES = {
    RuleKind.DIGEST_MORNING: dt.time(8, 0),
    RuleKind.DIGEST_EVENING: dt.time(21, 30),
}
DEFAULTS_VERSION = 2
"""1: the digests; 2: the weekly review (issue 14)."""
REVIEW_DEFAULT = (6, dt.time(20, 0))
"""The weekly review: Sunday (Monday is 0) at 20:00 local."""
_CRON_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
EVENT_LEAD_MINUTES = 30
TASK_LEAD_MINUTES = 30
CHANNEL = "wecom_app"


def digest_schedule(at: dt.time) -> Schedule:
    """A digest's daily schedule at local `at`, for `scheduler.core.schedule.next_after`."""
    return Schedule(cron=(("hour", str(at.hour)), ("minute", str(at.minute))))


def review_schedule(weekday: int, at: dt.time) -> Schedule:
    """The weekly review's schedule: `weekday` (Monday 0) at local `at`."""
    return Schedule(
        cron=(
            ("day_of_week", _CRON_DAYS[weekday]),
            ("hour", str(at.hour)),
            ("minute", str(at.minute)),
        )
    )


def review_spec(weekday: int, at: dt.time) -> str:
    """How a review rule stores its time: "6 20:00" (Sunday 20:00)."""
    return f"{weekday} {at.strftime('%H:%M')}"


def review_time(spec: str) -> tuple[int, dt.time]:
    """A review rule's (weekday, local time) from its spec; ValueError if malformed."""
    day, _, at = spec.partition(" ")
    weekday = int(day)
    if not 0 <= weekday <= 6:
        raise ValueError(f"weekday {weekday} out of range")
    return weekday, dt.time.fromisoformat(at)


def digest_time(rule: RuleRecord) -> dt.time:
    """A digest rule's local time, stored as HH:MM in its spec."""
    return dt.time.fromisoformat(rule.spec)


def event_reminder_at(event: EventRecord) -> dt.datetime | None:
    """When an event is reminded: N minutes before its start; None for all-day events."""
    if event.starts_at is None:
        return None
    lead = event.remind_minutes_before
    return event.starts_at - dt.timedelta(minutes=EVENT_LEAD_MINUTES if lead is None else lead)


def task_due_at(
    due_date: dt.date | None, due_time: dt.time | None, tz: ZoneInfo
) -> dt.datetime | None:
    """When a task is due, as an aware UTC instant (None without a day and a time):
    its reminder's reference, and a nagged task's first message."""
    if due_date is None or due_time is None:
        return None
    return dt.datetime.combine(due_date, due_time, tz).astimezone(dt.UTC)


def task_reminder_at(task: TaskRecord, tz: ZoneInfo) -> dt.datetime | None:
    """A task with a due date and time is reminded 30 minutes before; others never."""
    due = task_due_at(task.due_date, task.due_time, tz)
    return None if due is None else due - dt.timedelta(minutes=TASK_LEAD_MINUTES)
