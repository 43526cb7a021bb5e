"""The water plan's next-time rule (scheduler/core/water_rule.py)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler.core.water_rule import next_reminder

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
UTC = ZoneInfo("UTC")
T = dt.time
MIN = dt.timedelta(minutes=1)


def local(tz: ZoneInfo, year: int, month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=tz)


def utc(year: int, month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)


NAIVE = dt.datetime(2026, 11, 25, 10)  # noqa: DTZ001 - naive on purpose, to be refused


def sh(hour: int, minute: int = 0, day: int = 25) -> dt.datetime:
    return local(SHANGHAI, 2026, 11, day, hour, minute)


@pytest.mark.parametrize(
    ("checkin_at", "minutes", "wake", "sleep", "goal_reached", "expected"),
    [
        # The three rows of DESIGN §6.
        (sh(10), 120, T(8), T(22), False, sh(12)),
        (sh(21, 10), 120, T(8), T(22), False, sh(8, day=26)),
        (sh(16), 120, T(8), T(22), True, sh(8, day=26)),
        # The edges of the waking window.
        (sh(20), 120, T(8), T(22), False, sh(8, day=26)),
        (sh(19, 59), 120, T(8), T(22), False, sh(21, 59)),
        (sh(5), 120, T(8), T(22), False, sh(8)),
        (sh(6), 120, T(8), T(22), False, sh(8)),
        (sh(6, 1), 120, T(8), T(22), False, sh(8, 1)),
        # Across midnight: a late glass, a long interval, a window ending at 23:59.
        (sh(23, 30), 120, T(8), T(22), False, sh(8, day=26)),
        (sh(23), 480, T(8), T(22), False, sh(8, day=26)),
        (sh(22, 30), 600, T(8), T(22), False, sh(8, 30, day=26)),
        (sh(23), 30, T(7), T(23, 59), False, sh(23, 30)),
        (sh(23, 40), 30, T(7), T(23, 59), False, sh(7, day=26)),
        # The goal counts per local day: reached after midnight, it waits a full day.
        (sh(23, 30), 120, T(8), T(22), True, sh(8, day=26)),
        (sh(0, 30, day=26), 120, T(8), T(22), True, sh(8, day=27)),
        # The check-in may arrive in any offset; the user's zone decides.
        (utc(2026, 11, 25, 2), 120, T(8), T(22), False, sh(12)),
        (utc(2026, 11, 25, 13, 10), 120, T(8), T(22), False, sh(8, day=26)),
    ],
)
def test_the_next_reminder_follows_the_check_in_and_the_waking_window(
    checkin_at: dt.datetime,
    minutes: int,
    wake: dt.time,
    sleep: dt.time,
    goal_reached: bool,
    expected: dt.datetime,
) -> None:
    got = next_reminder(
        checkin_at=checkin_at,
        tz=SHANGHAI,
        interval=dt.timedelta(minutes=minutes),
        wake=wake,
        sleep=sleep,
        goal_reached=goal_reached,
    )
    assert got == expected
    assert got.tzinfo is dt.UTC


@pytest.mark.parametrize(
    ("checkin_at", "goal_reached", "expected"),
    [
        (utc(2026, 11, 25, 10), False, utc(2026, 11, 25, 12)),
        (utc(2026, 11, 25, 21, 10), False, utc(2026, 11, 26, 8)),
        (utc(2026, 11, 25, 16), True, utc(2026, 11, 26, 8)),
        (utc(2026, 11, 25, 6), False, utc(2026, 11, 25, 8)),
    ],
)
def test_a_user_in_utc_gets_the_same_rule_in_utc(
    checkin_at: dt.datetime, goal_reached: bool, expected: dt.datetime
) -> None:
    got = next_reminder(
        checkin_at=checkin_at,
        tz=UTC,
        interval=dt.timedelta(minutes=120),
        wake=T(8),
        sleep=T(22),
        goal_reached=goal_reached,
    )
    assert got == expected


@pytest.mark.parametrize(
    ("checkin_at", "wake", "sleep", "expected"),
    [
        # The wake time is wall-clock: 08:00 EDT the morning after the spring change...
        (local(NEW_YORK, 2026, 3, 7, 21, 10), T(8), T(22), utc(2026, 3, 8, 12)),
        # ... and 08:00 EST the morning after the autumn one.
        (local(NEW_YORK, 2026, 10, 31, 21, 10), T(8), T(22), utc(2026, 11, 1, 13)),
        # The interval is elapsed time: two real hours across the missing hour ...
        (
            local(NEW_YORK, 2026, 3, 8, 1, 30),
            T(0, 30),
            T(23, 30),
            local(NEW_YORK, 2026, 3, 8, 4, 30),
        ),
        # ... and across the repeated one: 01:30 EST, the second 01:30 of the night
        # (an ambiguous local time never compares equal across zones, so it is in UTC).
        (local(NEW_YORK, 2026, 11, 1, 0, 30), T(0, 30), T(23, 30), utc(2026, 11, 1, 6, 30)),
        # A wake time that does not exist that day lands just after the gap.
        (local(NEW_YORK, 2026, 3, 7, 21, 10), T(2, 30), T(22), local(NEW_YORK, 2026, 3, 8, 3, 30)),
        # An ambiguous wake time: the first pass, unless the candidate is in the second.
        (local(NEW_YORK, 2026, 10, 31, 23, 20), T(1, 30), T(22), utc(2026, 11, 1, 5, 30)),
        (local(NEW_YORK, 2026, 11, 1, 0, 20), T(1, 30), T(22), utc(2026, 11, 1, 6, 30)),
    ],
)
def test_daylight_saving_moves_the_wall_clock_but_not_the_interval(
    checkin_at: dt.datetime, wake: dt.time, sleep: dt.time, expected: dt.datetime
) -> None:
    got = next_reminder(
        checkin_at=checkin_at,
        tz=NEW_YORK,
        interval=dt.timedelta(minutes=120),
        wake=wake,
        sleep=sleep,
        goal_reached=False,
    )
    assert got == expected


@pytest.mark.parametrize(
    ("checkin_at", "minutes", "wake", "sleep"),
    [
        (NAIVE, 120, T(8), T(22)),
        (sh(10), 120, T(22), T(2)),  # a window across midnight is refused, not guessed
        (sh(10), 120, T(8), T(8)),
        (sh(10), 0, T(8), T(22)),
        (sh(10), -30, T(8), T(22)),
        (sh(10), 120, T(8, tzinfo=dt.UTC), T(22)),
    ],
)
def test_bad_inputs_are_refused_with_value_error(
    checkin_at: dt.datetime, minutes: int, wake: dt.time, sleep: dt.time
) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each row breaks a different rule
        next_reminder(
            checkin_at=checkin_at,
            tz=SHANGHAI,
            interval=dt.timedelta(minutes=minutes),
            wake=wake,
            sleep=sleep,
            goal_reached=False,
        )


_WINDOWS = st.tuples(st.integers(0, 1439), st.integers(1, 1439)).filter(lambda w: w[0] < w[1])


def _clock(minute: int) -> dt.time:
    return T(minute // 60, minute % 60)


def _instants(first: dt.date, last: dt.date) -> st.SearchStrategy[dt.datetime]:
    return st.datetimes(
        min_value=dt.datetime.combine(first, T()),  # hypothesis takes naive bounds
        max_value=dt.datetime.combine(last, T()),
        timezones=st.just(UTC),
    )


_CHECKINS = st.one_of(
    _instants(dt.date(2026, 1, 1), dt.date(2027, 1, 1)),
    # The nights New York changes its clocks, where the interesting cases live.
    _instants(dt.date(2026, 3, 7), dt.date(2026, 3, 9)),
    _instants(dt.date(2026, 10, 31), dt.date(2026, 11, 2)),
)


@settings(max_examples=120, deadline=None)
@given(
    checkin_at=_CHECKINS,
    tz=st.sampled_from([SHANGHAI, UTC, NEW_YORK]),
    minutes=st.integers(30, 480),
    window=_WINDOWS,
)
def test_the_next_reminder_is_never_early_and_never_outside_the_window(
    checkin_at: dt.datetime,
    tz: ZoneInfo,
    minutes: int,
    window: tuple[int, int],
) -> None:
    interval = dt.timedelta(minutes=minutes)
    wake, sleep = _clock(window[0]), _clock(window[1])
    got = next_reminder(
        checkin_at=checkin_at, tz=tz, interval=interval, wake=wake, sleep=sleep, goal_reached=False
    )
    assert got >= checkin_at + interval
    candidate = (checkin_at + interval).astimezone(tz)
    if wake <= candidate.time() < sleep:
        assert got == candidate.astimezone(dt.UTC)  # ambiguous local times never compare equal
    if tz is not NEW_YORK:  # without DST every wall-clock time exists exactly once
        assert wake <= got.astimezone(tz).time() < sleep
    tomorrow = next_reminder(
        checkin_at=checkin_at, tz=tz, interval=interval, wake=wake, sleep=sleep, goal_reached=True
    )
    assert tomorrow > checkin_at
    assert tomorrow.astimezone(tz).date() == checkin_at.astimezone(tz).date() + dt.timedelta(1)
