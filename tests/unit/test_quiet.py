"""Quiet time: what a due notification does while it lasts, and when it ends (scheduler/core/quiet.py)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from scheduler.core.quiet import MAX_QUIET, Decision, Move, during_quiet, quiet_end

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
NOW = dt.datetime(2026, 11, 25, 14, 0, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=2)
EARLIER = NOW - dt.timedelta(minutes=1)
NAIVE = dt.datetime(2026, 11, 25, 14, 0)  # noqa: DTZ001 - naive on purpose, to be refused

KINDS = [
    ("water", "low"),
    ("digest_morning", "normal"),
    ("digest_evening", "normal"),
    ("event_reminder", "high"),
    ("task_due", "high"),
    ("custom", "high"),
    ("custom", "normal"),
    ("weekly_review", "normal"),
]


@pytest.mark.parametrize(("kind", "priority"), KINDS, ids=[f"{k}-{p}" for k, p in KINDS])
@pytest.mark.parametrize(
    "quiet_until",
    [
        pytest.param(None, id="no-quiet-time"),
        pytest.param(EARLIER, id="quiet-time-over"),
        pytest.param(NOW, id="quiet-time-ends-right-now"),
    ],
)
def test_outside_quiet_time_everything_is_sent(
    kind: str, priority: str, quiet_until: dt.datetime | None
) -> None:
    assert during_quiet(kind, priority, quiet_until, NOW) == "send"


@pytest.mark.parametrize(
    ("kind", "priority", "expected"),
    [
        pytest.param("water", "low", Move(until=LATER), id="water-waits"),
        pytest.param("water", "high", Move(until=LATER), id="water-waits-even-if-high"),
        pytest.param("digest_morning", "normal", "suppress", id="morning-digest-dropped"),
        pytest.param("digest_evening", "normal", "suppress", id="evening-digest-dropped"),
        pytest.param("digest_evening", "high", "suppress", id="digest-dropped-even-if-high"),
        pytest.param("event_reminder", "high", "send", id="event-reminder-sent"),
        pytest.param("task_due", "high", "send", id="task-reminder-sent"),
        pytest.param("custom", "high", "send", id="important-custom-sent"),
        pytest.param("custom", "normal", Move(until=LATER), id="plain-custom-waits"),
        pytest.param("custom", "low", Move(until=LATER), id="low-custom-waits"),
        pytest.param("weekly_review", "normal", Move(until=LATER), id="weekly-review-waits"),
    ],
)
def test_during_quiet_time_only_high_priority_reminders_go_out_now(
    kind: str, priority: str, expected: Decision
) -> None:
    assert during_quiet(kind, priority, LATER, NOW) == expected


def test_one_second_before_the_end_is_still_quiet() -> None:
    assert during_quiet("custom", "normal", NOW + dt.timedelta(seconds=1), NOW) == Move(
        until=NOW + dt.timedelta(seconds=1)
    )


def test_quiet_time_in_another_zone_is_compared_as_an_instant() -> None:
    until = dt.datetime(2026, 11, 25, 22, 0, 1, tzinfo=SHANGHAI)  # 14:00:01 UTC
    assert during_quiet("water", "low", until, NOW) == Move(until=until)


@pytest.mark.parametrize(
    ("quiet_until", "now"),
    [
        pytest.param(NAIVE, NOW, id="naive-end"),
        pytest.param(LATER, NAIVE, id="naive-now"),
        pytest.param(None, NAIVE, id="naive-now-without-quiet-time"),
    ],
)
def test_quiet_decisions_refuse_naive_datetimes(
    quiet_until: dt.datetime | None, now: dt.datetime
) -> None:
    with pytest.raises(ValueError, match="naive"):
        during_quiet("custom", "normal", quiet_until, now)


def test_an_unknown_priority_is_refused() -> None:
    with pytest.raises(ValueError, match="urgent"):
        during_quiet("custom", "urgent", LATER, NOW)


def test_a_move_refuses_a_naive_time() -> None:
    with pytest.raises(ValueError, match="naive"):
        Move(until=NAIVE)


# --- quiet_end ---


def _local(year: int, month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute)  # noqa: DTZ001 - a wall-clock time


@pytest.mark.parametrize(
    ("now", "minutes", "until_local", "tz", "expected"),
    [
        pytest.param(NOW, 120, None, SHANGHAI, LATER, id="two-hours"),
        pytest.param(NOW, 1, None, SHANGHAI, NOW + dt.timedelta(minutes=1), id="one-minute"),
        pytest.param(NOW, 7 * 24 * 60, None, SHANGHAI, NOW + MAX_QUIET, id="exactly-seven-days"),
        pytest.param(
            NOW,
            None,
            _local(2026, 11, 26, 8),
            SHANGHAI,
            dt.datetime(2026, 11, 26, 0, 0, tzinfo=dt.UTC),
            id="until-tomorrow-8-in-shanghai",
        ),
        pytest.param(
            NOW.astimezone(SHANGHAI),
            60,
            None,
            SHANGHAI,
            NOW + dt.timedelta(hours=1),
            id="now-in-local-time",
        ),
        pytest.param(
            dt.datetime(2026, 11, 1, 0, 30, tzinfo=NEW_YORK),
            120,
            None,
            NEW_YORK,
            dt.datetime(2026, 11, 1, 6, 30, tzinfo=dt.UTC),  # 01:30 EST: two real hours
            id="real-minutes-across-dst",
        ),
        pytest.param(
            dt.datetime(2026, 11, 1, 4, 0, tzinfo=dt.UTC),
            None,
            _local(2026, 11, 1, 1, 30),
            NEW_YORK,
            dt.datetime(2026, 11, 1, 5, 30, tzinfo=dt.UTC),  # the first 01:30 (EDT)
            id="a-repeated-wall-time-takes-the-first",
        ),
    ],
)
def test_quiet_time_ends_at_an_aware_utc_instant(
    now: dt.datetime,
    minutes: int | None,
    until_local: dt.datetime | None,
    tz: ZoneInfo,
    expected: dt.datetime,
) -> None:
    end = quiet_end(now, minutes=minutes, until_local=until_local, tz=tz)
    assert end == expected
    assert end.tzinfo is dt.UTC


@pytest.mark.parametrize(
    ("now", "minutes", "until_local", "match"),
    [
        pytest.param(NOW, 0, None, "after now", id="zero-minutes"),
        pytest.param(NOW, -5, None, "after now", id="negative-minutes"),
        pytest.param(NOW, None, _local(2026, 11, 25, 22), "after now", id="until-exactly-now"),
        pytest.param(NOW, None, _local(2026, 11, 25, 21), "after now", id="until-in-the-past"),
        pytest.param(NOW, 7 * 24 * 60 + 1, None, "MAX_QUIET", id="a-minute-over-seven-days"),
        pytest.param(NOW, None, _local(2026, 12, 3, 8), "MAX_QUIET", id="until-next-week"),
        pytest.param(NOW, None, None, "exactly one", id="neither"),
        pytest.param(NOW, 60, _local(2026, 11, 26, 8), "exactly one", id="both"),
        pytest.param(NAIVE, 60, None, "naive", id="naive-now"),
        pytest.param(NOW, None, LATER, "naive", id="aware-until-local"),
    ],
)
def test_an_impossible_quiet_time_is_refused(
    now: dt.datetime, minutes: int | None, until_local: dt.datetime | None, match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        quiet_end(now, minutes=minutes, until_local=until_local, tz=SHANGHAI)
