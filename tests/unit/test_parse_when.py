"""Chinese day and time words resolved against a given `today` (see handlers/parse/when.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers.commands import ParseError
from handlers.parse.when import (
    Week,
    When,
    match_day,
    match_time,
    match_when,
    resolve_day_of_month,
    resolve_month_day,
    resolve_weekday,
)

D = dt.date
T = dt.time
WEDNESDAY = D(2026, 11, 25)
FRIDAY = D(2026, 11, 27)
SUNDAY = D(2026, 11, 29)
MONDAY, TUESDAY, THURSDAY, SATURDAY = 0, 1, 3, 5
FRI, SUN = 4, 6


@pytest.mark.parametrize(
    ("today", "weekday", "week", "expected"),
    [
        (WEDNESDAY, FRI, "nearest", D(2026, 11, 27)),
        (WEDNESDAY, 2, "nearest", WEDNESDAY),
        (WEDNESDAY, TUESDAY, "nearest", D(2026, 12, 1)),
        (WEDNESDAY, MONDAY, "nearest", D(2026, 11, 30)),
        (WEDNESDAY, SUN, "nearest", D(2026, 11, 29)),
        (FRIDAY, FRI, "nearest", FRIDAY),
        (FRIDAY, THURSDAY, "nearest", D(2026, 12, 3)),
        (SUNDAY, SUN, "nearest", SUNDAY),
        (SUNDAY, MONDAY, "nearest", D(2026, 11, 30)),
        (WEDNESDAY, MONDAY, "this", D(2026, 11, 23)),
        (WEDNESDAY, FRI, "this", D(2026, 11, 27)),
        (WEDNESDAY, SUN, "this", D(2026, 11, 29)),
        (SUNDAY, MONDAY, "this", D(2026, 11, 23)),
        (SUNDAY, SUN, "this", SUNDAY),
        (WEDNESDAY, MONDAY, "next", D(2026, 11, 30)),
        (WEDNESDAY, FRI, "next", D(2026, 12, 4)),
        (WEDNESDAY, SUN, "next", D(2026, 12, 6)),
        (SUNDAY, MONDAY, "next", D(2026, 11, 30)),
        (SUNDAY, SUN, "next", D(2026, 12, 6)),
        (D(2026, 12, 28), SATURDAY, "next", D(2027, 1, 9)),
        (D(2026, 12, 31), FRI, "nearest", D(2027, 1, 1)),
    ],
)
def test_a_weekday_resolves_by_its_week_word(
    today: dt.date, weekday: int, week: Week, expected: dt.date
) -> None:
    assert resolve_weekday(weekday, today, week) == expected


@pytest.mark.parametrize(
    ("today", "month", "day", "expected"),
    [
        (WEDNESDAY, 12, 1, D(2026, 12, 1)),
        (WEDNESDAY, 11, 25, WEDNESDAY),
        (WEDNESDAY, 11, 24, D(2027, 11, 24)),
        (WEDNESDAY, 1, 1, D(2027, 1, 1)),
        (WEDNESDAY, 12, 31, D(2026, 12, 31)),
        (D(2026, 12, 31), 12, 31, D(2026, 12, 31)),
        (D(2026, 12, 31), 12, 30, D(2027, 12, 30)),
        (D(2027, 3, 1), 2, 29, D(2028, 2, 29)),
        (D(2028, 1, 10), 2, 29, D(2028, 2, 29)),
    ],
)
def test_a_month_and_day_is_this_year_unless_it_has_passed(
    today: dt.date, month: int, day: int, expected: dt.date
) -> None:
    assert resolve_month_day(month, day, today) == expected


@pytest.mark.parametrize(
    ("today", "day", "expected"),
    [
        (WEDNESDAY, 25, WEDNESDAY),
        (WEDNESDAY, 30, D(2026, 11, 30)),
        (WEDNESDAY, 1, D(2026, 12, 1)),
        (WEDNESDAY, 24, D(2026, 12, 24)),
        (D(2026, 12, 31), 1, D(2027, 1, 1)),
        (D(2026, 12, 31), 31, D(2026, 12, 31)),
        (D(2027, 1, 31), 28, D(2027, 2, 28)),
        (D(2028, 2, 28), 29, D(2028, 2, 29)),
    ],
)
def test_a_day_of_month_is_this_month_unless_it_has_passed(
    today: dt.date, day: int, expected: dt.date
) -> None:
    assert resolve_day_of_month(day, today) == expected


@pytest.mark.parametrize(
    ("today", "text"),
    [
        (WEDNESDAY, "13-45"),
        (WEDNESDAY, "2-30"),
        (WEDNESDAY, "2月30日"),
        (WEDNESDAY, "11月31号"),
        (WEDNESDAY, "31号"),
        (WEDNESDAY, "0号"),
        (WEDNESDAY, "0-5"),
        (WEDNESDAY, "2-29"),
        (WEDNESDAY, "2026-02-29"),
        (WEDNESDAY, "2026-13-01"),
        (WEDNESDAY, "0000-01-01"),
        (D(2027, 1, 31), "30号"),
        (D(9999, 12, 31), "明天"),
        (D(9999, 12, 31), "1号"),
        (D(9999, 12, 31), "12-30"),
        (D(9999, 12, 31), "下周一"),
    ],
)
def test_a_date_that_does_not_exist_is_an_error_not_a_neighbour(today: dt.date, text: str) -> None:
    with pytest.raises(ParseError, match="这一天"):
        match_day(text, today)


@pytest.mark.parametrize(
    ("text", "expected", "end"),
    [
        ("今天", WEDNESDAY, 2),
        ("今日", WEDNESDAY, 2),
        ("明天", D(2026, 11, 26), 2),
        ("明日", D(2026, 11, 26), 2),
        ("后天", D(2026, 11, 27), 2),
        ("大后天", D(2026, 11, 28), 3),
        ("周五", D(2026, 11, 27), 2),
        ("星期三", WEDNESDAY, 3),
        ("礼拜天", D(2026, 11, 29), 3),
        ("周7", D(2026, 11, 29), 2),
        ("下周五", D(2026, 12, 4), 3),
        ("下个星期一", D(2026, 11, 30), 5),
        ("下礼拜二", D(2026, 12, 1), 4),
        ("本周一", D(2026, 11, 23), 3),
        ("这周二", D(2026, 11, 24), 3),
        ("这个周日", D(2026, 11, 29), 4),
        ("12-01", D(2026, 12, 1), 5),
        ("12/1", D(2026, 12, 1), 4),
        ("12月1日", D(2026, 12, 1), 5),
        ("12月1号", D(2026, 12, 1), 5),
        ("2027-03-04", D(2027, 3, 4), 10),
        ("2027/3/4", D(2027, 3, 4), 8),
        ("2027年3月4日", D(2027, 3, 4), 9),
        ("1号", D(2026, 12, 1), 2),
        ("28日", D(2026, 11, 28), 3),
        ("明天下午3点", D(2026, 11, 26), 2),
        ("明天买菜", D(2026, 11, 26), 2),
        # Spoken forms (issue 9); 周末 and 一号 were left alone before.
        ("周末", D(2026, 11, 28), 2),
        ("下周末", D(2026, 12, 5), 3),
        ("一号", D(2026, 12, 1), 2),
        ("十五号", D(2026, 12, 15), 3),
        ("月底", D(2026, 11, 30), 2),
        ("下个月5号", D(2026, 12, 5), 5),
        ("下月十号", D(2026, 12, 10), 4),
        ("12.5", D(2026, 12, 5), 4),
        ("12/5", D(2026, 12, 5), 4),
        ("12月5号", D(2026, 12, 5), 5),
    ],
)
def test_a_day_word_resolves_and_says_where_it_ended(
    text: str, expected: dt.date, end: int
) -> None:
    assert match_day(text, WEDNESDAY) == (expected, end)


@pytest.mark.parametrize("text", ["", "买菜", "本周", "下周", "12-012", "20261201", "3个", "15:00"])
def test_text_that_is_not_a_day_is_left_alone(text: str) -> None:
    assert match_day(text, WEDNESDAY) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14:30", T(14, 30)),
        ("9:05", T(9, 5)),
        ("0:00", T(0, 0)),
        ("23:59", T(23, 59)),
        ("9点", T(9, 0)),
        ("9点钟", T(9, 0)),
        ("9点半", T(9, 30)),
        ("9点15分", T(9, 15)),
        ("9点15", T(9, 15)),
        ("上午10点", T(10, 0)),
        ("早上7点", T(7, 0)),
        ("凌晨2点", T(2, 0)),
        ("中午12点", T(12, 0)),
        ("中午1点", T(13, 0)),
        ("下午3点", T(15, 0)),
        ("下午12点", T(12, 0)),
        ("下午 3:30", T(15, 30)),
        ("下午15:30", T(15, 30)),
        ("傍晚6点", T(18, 0)),
        ("晚上8点半", T(20, 30)),
        ("晚上11点", T(23, 0)),
    ],
)
def test_a_time_word_resolves_to_a_clock_time(text: str, expected: dt.time) -> None:
    found = match_time(text)
    assert found is not None
    assert found.time == expected
    assert found.end == len(text)


@pytest.mark.parametrize(
    "text", ["24:00", "25:00", "9:60", "99:99", "晚上12点", "晚上0点", "上午13点", "中午5点"]
)
def test_a_time_that_does_not_exist_is_an_error(text: str) -> None:
    with pytest.raises(ParseError, match="0:00 到 23:59"):
        match_time(text)


@pytest.mark.parametrize("text", ["", "开会", "下午", "3个", "123:45", "9:5", "一点小事"])
def test_text_that_is_not_a_time_is_left_alone(text: str) -> None:
    assert match_time(text) is None


@pytest.mark.parametrize(
    ("text", "day", "start", "end", "all_day", "rest"),
    [
        ("明天 14:00-15:00 复诊", D(2026, 11, 26), T(14), T(15), False, "复诊"),
        ("明天 14:00~15:00 复诊", D(2026, 11, 26), T(14), T(15), False, "复诊"),
        ("明天 14:00 到 15:00 复诊", D(2026, 11, 26), T(14), T(15), False, "复诊"),
        ("明天 下午2点-4点 复诊", D(2026, 11, 26), T(14), T(16), False, "复诊"),
        ("明天 晚上8点至10点 看球", D(2026, 11, 26), T(20), T(22), False, "看球"),
        ("明天 下午2点-上午11点 怪", D(2026, 11, 26), T(14), T(11), False, "怪"),
        ("明天 9:00 到医院", D(2026, 11, 26), T(9), None, False, "到医院"),
        ("后天下午3点 开会", D(2026, 11, 27), T(15), None, False, "开会"),
        ("明天 全天 体检", D(2026, 11, 26), None, None, True, "体检"),
        ("明天 复诊", D(2026, 11, 26), None, None, False, "复诊"),
        ("15:00 交材料", None, T(15), None, False, "交材料"),
        ("交材料", None, None, None, False, "交材料"),
        ("", None, None, None, False, ""),
    ],
)
def test_a_body_splits_into_day_time_and_the_rest(
    text: str,
    day: dt.date | None,
    start: dt.time | None,
    end: dt.time | None,
    all_day: bool,
    rest: str,
) -> None:
    when = match_when(text, WEDNESDAY)
    assert (when.day, when.start, when.end, when.all_day, when.rest) == (
        day,
        start,
        end,
        all_day,
        rest,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("三点", T(3)),
        ("3点半", T(3, 30)),
        ("十五点", T(15)),
        ("8点50", T(8, 50)),
        ("八点五十", T(8, 50)),
        ("十点一刻", T(10, 15)),
        ("七点三刻", T(7, 45)),
        ("下午两点", T(14)),
        ("晚上七点半", T(19, 30)),
        ("凌晨一点", T(1)),
        ("今晚8点", T(20)),
        ("明早七点", T(7)),
    ],
)
def test_a_spoken_time_is_read(text: str, expected: dt.time) -> None:
    found = match_time(text)
    assert found is not None
    assert (found.time, found.end) == (expected, len(text))


@pytest.mark.parametrize(
    ("text", "day", "start", "end", "rest"),
    [
        ("明早8点 跑步", D(2026, 11, 26), T(8), None, "跑步"),
        ("今晚 看电影", WEDNESDAY, None, None, "看电影"),
        ("今晚7点到9点 看电影", WEDNESDAY, T(19), T(21), "看电影"),
        ("周五 3点到4点半 复诊", FRIDAY, T(3), T(4, 30), "复诊"),
        ("下午3点到4点半 开会", None, T(15), T(16, 30), "开会"),
    ],
)
def test_a_spoken_day_and_time_range_split_from_the_title(
    text: str, day: dt.date | None, start: dt.time, end: dt.time | None, rest: str
) -> None:
    assert match_when(text, WEDNESDAY) == When(day, start, end, False, rest)
