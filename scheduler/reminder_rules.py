"""The pure parts of reminder rules: their defaults and times (no I/O).

Shared by the tick's kinds (`scheduler.reminder_kinds`) and the conversation's rule
writer (`services.rules`), so both compute a reminder's time the same way.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from scheduler.schedule import Schedule
from storage.records import EventRecord, RuleKind, RuleRecord, TaskRecord

DIGESTS = (RuleKind.DIGEST_MORNING, RuleKind.DIGEST_EVENING)
DEFAULT_DIGEST_TIMES = {
    RuleKind.DIGEST_MORNING: dt.time(8, 0),
    RuleKind.DIGEST_EVENING: dt.time(21, 30),
}
DEFAULTS_VERSION = 1
EVENT_LEAD_MINUTES = 30
TASK_LEAD_MINUTES = 30
CHANNEL = "wecom_app"


def digest_schedule(at: dt.time) -> Schedule:
    """A digest's daily schedule at local `at`, for `scheduler.schedule.next_after`."""
    return Schedule(cron=(("hour", str(at.hour)), ("minute", str(at.minute))))


def digest_time(rule: RuleRecord) -> dt.time:
    """A digest rule's local time, stored as HH:MM in its spec."""
    return dt.time.fromisoformat(rule.spec)


def event_reminder_at(event: EventRecord) -> dt.datetime | None:
    """When an event is reminded: N minutes before its start; None for all-day events."""
    if event.starts_at is None:
        return None
    lead = event.remind_minutes_before
    return event.starts_at - dt.timedelta(minutes=EVENT_LEAD_MINUTES if lead is None else lead)


def task_reminder_at(task: TaskRecord, tz: ZoneInfo) -> dt.datetime | None:
    """A task with a due date and time is reminded 30 minutes before; others never."""
    if task.due_date is None or task.due_time is None:
        return None
    due = dt.datetime.combine(task.due_date, task.due_time, tz).astimezone(dt.UTC)
    return due - dt.timedelta(minutes=TASK_LEAD_MINUTES)
