"""When the daily backup is owed, and when a missing one is worth an alarm. Pure.

The scheduled backup runs once a day at a local time (KEEPER_BACKUP_AT in
KEEPER_TIMEZONE). A scheduler owes the backup of the newest slot at or before `now`
(`latest_slot`); the slot's local date names the run, and claiming that date is what
makes one scheduler of several do it. After downtime the newest missed slot is made up
at once (a late backup beats none); older missed days are not made up one by one.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

OVERDUE_AFTER = dt.timedelta(hours=26)
"""A day's rhythm plus two hours: the run's own time and some slack for a slow verify."""


def latest_slot(now: dt.datetime, at: dt.time, zone: ZoneInfo) -> dt.datetime:
    """The newest daily slot (local `at` in `zone`) at or before `now`, in UTC.

    A local time skipped by a DST change is read as the zone does (fold=0), so the
    slot moves with the clock change instead of being lost.
    """
    local = now.astimezone(zone)
    slot = _slot_on(local.date(), at, zone)
    if slot > now:
        slot = _slot_on(local.date() - dt.timedelta(days=1), at, zone)
    return slot


def run_day(slot: dt.datetime, zone: ZoneInfo) -> dt.date:
    """The local date that names a slot's run (the claim's unique key)."""
    return slot.astimezone(zone).date()


def backup_overdue(last_verified_at: dt.datetime | None, now: dt.datetime, enabled: bool) -> bool:
    """Whether to alarm: scheduled backups are on and none verified within 26 hours.

    `last_verified_at` None (never verified) counts as overdue once backups are on:
    a deployment that has never had a verified backup is the case worth knowing about.
    """
    if not enabled:
        return False
    return last_verified_at is None or now - last_verified_at > OVERDUE_AFTER


def _slot_on(day: dt.date, at: dt.time, zone: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, at, zone).astimezone(dt.UTC)
