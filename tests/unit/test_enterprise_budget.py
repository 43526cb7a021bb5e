"""WeCom's enterprise limits as counted buckets: which buckets count, how many calls a
reservation gets (high priority first, the others within a share), when to retry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scheduler.channels.enterprise_budget import (
    EnterpriseLimits,
    Grant,
    Window,
    enterprise_windows,
    grant,
)

NOW = datetime(2026, 11, 25, 2, 0, 7, tzinfo=UTC)  # 10:00:07 in Shanghai
MINUTE = Window(name="minute", length=timedelta(minutes=1), buckets=12, limit=100)
DAY = Window(name="day", length=timedelta(days=1), buckets=1, limit=50)


def at(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


BUCKETS = [
    # (window, now, bucket, first counted, next bucket)
    (MINUTE, NOW, at(-2), at(-2 - 65), at(3)),
    (MINUTE, at(3), at(3), at(3 - 65), at(8)),
    (
        DAY,
        NOW,
        datetime(2026, 11, 24, 16, tzinfo=UTC),
        None,
        datetime(2026, 11, 25, 16, tzinfo=UTC),
    ),
    # 23:59 in Shanghai is still the same WeCom day; 00:00 is the next one.
    (
        DAY,
        datetime(2026, 11, 25, 15, 59, tzinfo=UTC),
        datetime(2026, 11, 24, 16, tzinfo=UTC),
        None,
        None,
    ),
    (
        DAY,
        datetime(2026, 11, 25, 16, 0, tzinfo=UTC),
        datetime(2026, 11, 25, 16, tzinfo=UTC),
        None,
        None,
    ),
]


@pytest.mark.parametrize(("window", "now", "bucket", "first", "following"), BUCKETS)
def test_buckets_are_cut_by_width_and_the_day_by_chinas_calendar(
    window: Window,
    now: datetime,
    bucket: datetime,
    first: datetime | None,
    following: datetime | None,
) -> None:
    assert window.bucket(now) == bucket
    assert window.counted(now) == (first or bucket, bucket)
    if following is not None:
        assert window.next_bucket(now) == following


def used(**by_seconds_ago: int) -> dict[tuple[str, datetime], int]:
    """Minute-window counts keyed by how far back their bucket starts (s2 = 2 s ago)."""
    return {("minute", at(-int(k[1:]))): n for k, n in by_seconds_ago.items()}


GRANTS = [
    # (used, priorities wanted, expected grant)
    ({}, ["high"] * 3, Grant(granted=3, retry_at=None)),
    (used(s2=97), ["high"] * 5, Grant(granted=3, retry_at=at(3))),
    # Others may use 80 of the 100: at 78, two of them go, then nothing below high.
    (used(s2=78), ["normal", "low", "low"], Grant(granted=2, retry_at=at(3))),
    (used(s2=78), ["high", "high", "low"], Grant(granted=2, retry_at=at(3))),
    (used(s2=80), ["high"] * 20 + ["low"], Grant(granted=20, retry_at=at(3))),
    # 14 buckets count (the minute plus two): 67 s ago is the oldest; 72 s ago is out.
    (used(s67=100), ["high"], Grant(granted=0, retry_at=at(3))),
    (used(s72=100), ["high"], Grant(granted=1, retry_at=None)),
    (used(s2=50, s32=49), ["high", "high"], Grant(granted=1, retry_at=at(3))),
]


@pytest.mark.parametrize(("counts", "priorities", "expected"), GRANTS)
def test_a_reservation_gets_what_fits_in_order_high_first(
    counts: dict[tuple[str, datetime], int], priorities: list[str], expected: Grant
) -> None:
    assert grant([MINUTE], counts, priorities, NOW) == expected


def test_the_daily_cap_counts_message_sends_only_and_refuses_past_it() -> None:
    limits = EnterpriseLimits(daily=50)
    assert [w.name for w in limits.windows("message/send")] == ["minute", "hour", "day"]
    assert [w.name for w in limits.windows("message/update_template_card")] == ["minute", "hour"]
    day_used = {("day", DAY.bucket(NOW)): 49}
    tomorrow = datetime(2026, 11, 25, 16, tzinfo=UTC)
    assert grant(limits.windows("message/send"), day_used, ["high"] * 2, NOW) == Grant(
        granted=1, retry_at=tomorrow
    )


def test_wecoms_documented_limits_are_the_defaults() -> None:
    minute, hour = enterprise_windows(daily=None)
    assert (minute.limit, hour.limit) == (10_000, 150_000)
    assert (minute.width, hour.width) == (timedelta(seconds=5), timedelta(minutes=5))


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        grant([MINUTE], {}, ["high"], NOW.replace(tzinfo=None))
