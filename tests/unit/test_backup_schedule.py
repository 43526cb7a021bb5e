"""The daily backup's time rules and the pruning choice, as tables (no I/O)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from scheduler.core.backup_schedule import backup_overdue, latest_slot, run_day
from storage.backup.prune import beyond

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
AT = dt.time(3, 30)


def utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC)


@pytest.mark.parametrize(
    ("now", "zone", "slot"),
    [
        # Shanghai 03:30 is 19:30 UTC the day before.
        ("2026-11-30T03:29:59+08:00", SHANGHAI, "2026-11-29T03:30+08:00"),
        ("2026-11-30T03:30:00+08:00", SHANGHAI, "2026-11-30T03:30+08:00"),
        ("2026-11-30T23:59:00+08:00", SHANGHAI, "2026-11-30T03:30+08:00"),
        ("2026-12-01T00:10:00+08:00", SHANGHAI, "2026-11-30T03:30+08:00"),
        # New York: 02:30 does not exist on 2026-03-08 (spring forward); read as 03:30 EDT.
        ("2026-03-08T12:00:00-04:00", NEW_YORK, "2026-03-08T03:30-04:00"),
        # After falling back on 2026-11-01, 03:30 is EST (-05:00).
        ("2026-11-01T12:00:00-05:00", NEW_YORK, "2026-11-01T03:30-05:00"),
    ],
)
def test_the_newest_slot_at_or_before_now(now: str, zone: ZoneInfo, slot: str) -> None:
    assert latest_slot(utc(now), AT, zone) == utc(slot)


def test_a_slot_is_named_by_its_local_date_not_the_utc_one() -> None:
    slot = latest_slot(utc("2026-11-30T04:00+08:00"), AT, SHANGHAI)
    assert slot.date() == dt.date(2026, 11, 29)  # 19:30 UTC
    assert run_day(slot, SHANGHAI) == dt.date(2026, 11, 30)


NOW = utc("2026-11-30T12:00+08:00")


@pytest.mark.parametrize(
    ("last_verified", "enabled", "overdue"),
    [
        (None, False, False),
        (NOW - dt.timedelta(days=30), False, False),
        (None, True, True),
        (NOW - dt.timedelta(hours=1), True, False),
        (NOW - dt.timedelta(hours=26), True, False),
        (NOW - dt.timedelta(hours=26, seconds=1), True, True),
    ],
)
def test_a_backup_is_overdue_after_26_hours_only_when_enabled(
    last_verified: dt.datetime | None, enabled: bool, overdue: bool
) -> None:
    assert backup_overdue(last_verified, NOW, enabled) is overdue


def names(*days: int) -> list[str]:
    return [f"keeper-202611{d:02d}T193000Z.kbak" for d in days]


@pytest.mark.parametrize(
    ("present", "keep", "protect", "deleted"),
    [
        (names(1, 2, 3), 3, names(3)[0], []),
        (names(1, 2, 3, 4, 5), 3, names(5)[0], names(1, 2)),
        (names(5, 1, 3, 2, 4), 2, names(5)[0], names(1, 2, 3)),
        # the newest verified one stays even when newer (failed) files outnumber `keep`
        (names(1, 2, 3), 1, names(2)[0], names(1)),
        # never a file that is not a scheduled backup's
        (
            [*names(1, 2), "keeper-20261103T193000Z.kbak.partial", "notes.txt", "mine.kbak"],
            1,
            names(2)[0],
            names(1),
        ),
    ],
)
def test_pruning_keeps_the_newest_and_touches_nothing_else(
    present: list[str], keep: int, protect: str, deleted: list[str]
) -> None:
    assert beyond(present, keep, protect) == deleted
