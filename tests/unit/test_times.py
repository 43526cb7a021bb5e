"""How replies name times (scheduler/core/times.py)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from scheduler.core.texts.times import age_words, day_label, hm, stamp, when

SHANGHAI = ZoneInfo("Asia/Shanghai")
NAIVE = dt.datetime(2026, 11, 25, 10)  # noqa: DTZ001 - naive on purpose, to be refused


def local(tz: ZoneInfo, year: int, month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=tz)


def utc(year: int, month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)


def sh(hour: int, minute: int = 0, day: int = 25) -> dt.datetime:
    return local(SHANGHAI, 2026, 11, day, hour, minute)


NOW = sh(10)


@pytest.mark.parametrize(
    ("at", "now", "expected"),
    [
        (sh(12), NOW, "12:00"),
        (sh(8, 5), NOW, "08:05"),
        (sh(23, 59), NOW, "23:59"),
        (sh(8, day=26), NOW, "明天 08:00"),
        (sh(8, day=27), NOW, "11月27日 08:00"),
        (local(SHANGHAI, 2026, 12, 3, 8), NOW, "12月3日 08:00"),
        (local(SHANGHAI, 2027, 1, 2, 8), local(SHANGHAI, 2026, 12, 31, 20), "1月2日 08:00"),
        # The local day decides, not the UTC one: both instants are on 25 Nov in UTC.
        (utc(2026, 11, 26, 0), utc(2026, 11, 25, 15), "明天 08:00"),
        (utc(2026, 11, 25, 4), utc(2026, 11, 24, 17), "12:00"),
    ],
)
def test_a_reply_names_the_next_time_relative_to_the_users_today(
    at: dt.datetime, now: dt.datetime, expected: str
) -> None:
    assert when(at, now_utc=now, tz=SHANGHAI) == expected


def test_when_refuses_naive_datetimes() -> None:
    with pytest.raises(ValueError, match="naive"):
        when(NAIVE, now_utc=NOW, tz=SHANGHAI)


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (dt.date(2026, 11, 25), "今天"),
        (dt.date(2026, 11, 26), "明天"),
        (dt.date(2026, 11, 27), "后天"),
        (dt.date(2026, 11, 24), "昨天"),
        (dt.date(2026, 11, 28), "11月28日 周六"),
    ],
)
def test_a_day_is_named_relative_to_today(day: dt.date, expected: str) -> None:
    assert day_label(day, dt.date(2026, 11, 25)) == expected


def test_clock_times_and_admin_stamps_have_two_digit_fields() -> None:
    assert hm(dt.time(8, 5)) == "08:05"
    assert stamp(utc(2026, 3, 4, 1, 7), SHANGHAI) == "03-04 09:07"


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (-30, "刚刚"),  # a clock a little ahead
        (0, "刚刚"),
        (59.9, "刚刚"),
        (60, "1 分钟前"),
        (3 * 60 + 5, "3 分钟前"),
        (3599, "59 分钟前"),
        (3600, "1 小时前"),
        (38 * 3600 + 1800, "38 小时前"),
        (48 * 3600 - 1, "47 小时前"),
        (48 * 3600, "2 天前"),
        (5 * 86400 + 7200, "5 天前"),
        (137200, "38 小时前"),  # the "几秒前 137200"
    ],
)
def test_ages_read_as_people_say_them(seconds: float, words: str) -> None:
    assert age_words(seconds) == words
