"""Custom reminders in plain Chinese (handlers/parse/schedules.py), read on a fixed Sunday.

Each row gives the phrase typed after `提醒`, the title and importance it yields, and
the next (up to three) times it fires in Shanghai, computed with `next_after` from
NOW, Sunday 2026-11-29 10:00. Calendar: Mon 11-30, Tue 12-01, Wed 12-02, Thu 12-03,
Fri 12-04, Sat 12-05, Sun 12-06.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers import texts
from handlers.commands import AddReminder, ParseError
from handlers.parse.normalise import normalise
from handlers.parse.schedules import MAX_TITLE, parse_custom_reminder
from handlers.texts import (
    IN_THE_PAST,
    INVALID_MONTH_DAY,
    LATER_OUT_OF_RANGE,
    NEEDS_TITLE,
    NEEDS_WHEN,
    TITLE_TOO_LONG,
    UNKNOWN_REPEAT,
    WEEKDAY_MISSING,
)
from scheduler.core.schedule import next_after

SHANGHAI = ZoneInfo("Asia/Shanghai")


def local(
    y: int, m: int, d: int, hh: int = 0, mm: int = 0, ss: int = 0, us: int = 0
) -> dt.datetime:
    """A naive wall-clock time in the user's zone: what the parser takes and gives."""
    return dt.datetime(y, m, d, hh, mm, ss, us)  # noqa: DTZ001 -- naive by design, see above


NOW = local(2026, 11, 29, 10, 0)  # a Sunday


def fires(reminder: AddReminder, now: dt.datetime = NOW, count: int = 3) -> list[str]:
    """The next `count` local times the reminder fires after `now` (fewer for a one-off)."""
    after = now.replace(tzinfo=SHANGHAI)
    found: list[str] = []
    for _ in range(count):
        at = next_after(reminder.schedule, after, SHANGHAI)
        if at is None:
            break
        found.append(at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"))
        after = at
    return found


ROWS = [
    # the issue's own examples
    ("每天 22:00 吃药", "吃药", False, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("明天 9:00 交材料", "交材料", False, ["2026-11-30 09:00"]),
    ("每周一 09:00 写周报", "写周报", False, ["2026-11-30 09:00", "2026-12-07 09:00", "2026-12-14 09:00"]),
    ("工作日 18:00 下班打卡", "下班打卡", False, ["2026-11-30 18:00", "2026-12-01 18:00", "2026-12-02 18:00"]),
    ("每月1号 交房租", "交房租", False, ["2026-12-01 09:00", "2027-01-01 09:00", "2027-02-01 09:00"]),
    ("重要 每天 8:00 吃药", "吃药", True, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    ("每天 8:00 吃药 重要", "吃药", True, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    # every day
    ("每天早上8点 跑步", "跑步", False, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    ("每天晚上10点半 睡觉", "睡觉", False, ["2026-11-29 22:30", "2026-11-30 22:30", "2026-12-01 22:30"]),
    ("每晚 22:00 复盘", "复盘", False, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("每晚10点 泡脚", "泡脚", False, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("每早 7:30 喝水", "喝水", False, ["2026-11-30 07:30", "2026-12-01 07:30", "2026-12-02 07:30"]),
    ("每个晚上 9点 写日记", "写日记", False, ["2026-11-29 21:00", "2026-11-30 21:00", "2026-12-01 21:00"]),
    ("每日 12:30 午休", "午休", False, ["2026-11-29 12:30", "2026-11-30 12:30", "2026-12-01 12:30"]),
    ("天天 6:45 起床", "起床", False, ["2026-11-30 06:45", "2026-12-01 06:45", "2026-12-02 06:45"]),
    ("每天 中午12点 吃饭", "吃饭", False, ["2026-11-29 12:00", "2026-11-30 12:00", "2026-12-01 12:00"]),
    ("每天22:00吃药", "吃药", False, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("每天 0:00 记步数", "记步数", False, ["2026-11-30 00:00", "2026-12-01 00:00", "2026-12-02 00:00"]),
    ("每天 吃维生素", "吃维生素", False, ["2026-11-30 09:00", "2026-12-01 09:00", "2026-12-02 09:00"]),
    ("每天早上 吃早饭", "吃早饭", False, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    ("每天下午 散步", "散步", False, ["2026-11-29 15:00", "2026-11-30 15:00", "2026-12-01 15:00"]),
    ("每晚 刷牙", "刷牙", False, ["2026-11-29 20:00", "2026-11-30 20:00", "2026-12-01 20:00"]),
    # weekdays
    ("每周三 20:00 倒垃圾", "倒垃圾", False, ["2026-12-02 20:00", "2026-12-09 20:00", "2026-12-16 20:00"]),
    ("每周一三五 7:00 健身", "健身", False, ["2026-11-30 07:00", "2026-12-02 07:00", "2026-12-04 07:00"]),
    ("每周一、三、五 08:00 跑步", "跑步", False, ["2026-11-30 08:00", "2026-12-02 08:00", "2026-12-04 08:00"]),
    ("每周二和周四 19:00 游泳", "游泳", False, ["2026-12-01 19:00", "2026-12-03 19:00", "2026-12-08 19:00"]),
    ("每周末 10:00 大扫除", "大扫除", False, ["2026-12-05 10:00", "2026-12-06 10:00", "2026-12-12 10:00"]),
    ("周末都 11:00 给爸妈打电话", "给爸妈打电话", False, ["2026-11-29 11:00", "2026-12-05 11:00", "2026-12-06 11:00"]),
    ("周末 11:00 给爸妈打电话", "给爸妈打电话", False, ["2026-12-05 11:00"]),  # once: the coming Saturday
    ("每个工作日 9:30 站会", "站会", False, ["2026-11-30 09:30", "2026-12-01 09:30", "2026-12-02 09:30"]),
    ("每星期五 17:00 写周报", "写周报", False, ["2026-12-04 17:00", "2026-12-11 17:00", "2026-12-18 17:00"]),
    ("每礼拜天 20:00 备课", "备课", False, ["2026-11-29 20:00", "2026-12-06 20:00", "2026-12-13 20:00"]),
    ("每个星期六 下午3点 上课", "上课", False, ["2026-12-05 15:00", "2026-12-12 15:00", "2026-12-19 15:00"]),
    ("每周日 晚上9点 写计划", "写计划", False, ["2026-11-29 21:00", "2026-12-06 21:00", "2026-12-13 21:00"]),
    ("每周一至周五 18:00 下班", "下班", False, ["2026-11-30 18:00", "2026-12-01 18:00", "2026-12-02 18:00"]),
    ("周一到周五 7:00 起床", "起床", False, ["2026-11-30 07:00", "2026-12-01 07:00", "2026-12-02 07:00"]),
    ("每周1-5 8:00 打卡", "打卡", False, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    ("每周五到周一 9:00 休息", "休息", False, ["2026-11-30 09:00", "2026-12-04 09:00", "2026-12-05 09:00"]),
    # months and years
    ("每月15号 还信用卡", "还信用卡", False, ["2026-12-15 09:00", "2027-01-15 09:00", "2027-02-15 09:00"]),
    ("每月十五号 交电费", "交电费", False, ["2026-12-15 09:00", "2027-01-15 09:00", "2027-02-15 09:00"]),
    ("每月最后一天 20:00 记账", "记账", False, ["2026-11-30 20:00", "2026-12-31 20:00", "2027-01-31 20:00"]),
    ("每月底 21:00 月度复盘", "月度复盘", False, ["2026-11-30 21:00", "2026-12-31 21:00", "2027-01-31 21:00"]),
    ("每月1号和15号 10:00 理财", "理财", False, ["2026-12-01 10:00", "2026-12-15 10:00", "2027-01-01 10:00"]),
    ("每月31号 8:00 结账", "结账", False, ["2026-12-31 08:00", "2027-01-31 08:00", "2027-03-31 08:00"]),
    ("每年3月8日 送花", "送花", False, ["2027-03-08 09:00", "2028-03-08 09:00", "2029-03-08 09:00"]),
    ("每年12月25日 8点 圣诞礼物", "圣诞礼物", False, ["2026-12-25 08:00", "2027-12-25 08:00", "2028-12-25 08:00"]),
    ("每年2月29日 9:00 过生日", "过生日", False, ["2028-02-29 09:00", "2032-02-29 09:00", "2036-02-29 09:00"]),
    # one-offs on a day
    ("今天 15:00 开会", "开会", False, ["2026-11-29 15:00"]),
    ("今晚8点 看球", "看球", False, ["2026-11-29 20:00"]),
    ("明早8点 体检", "体检", False, ["2026-11-30 08:00"]),
    ("明晚 聚餐", "聚餐", False, ["2026-11-30 20:00"]),
    ("明天下午3点 取快递", "取快递", False, ["2026-11-30 15:00"]),
    ("明天 0:00 抢票", "抢票", False, ["2026-11-30 00:00"]),
    ("后天 10:00 面试", "面试", False, ["2026-12-01 10:00"]),
    ("大后天 8:00 出发", "出发", False, ["2026-12-02 08:00"]),
    ("周五 14:00 复诊", "复诊", False, ["2026-12-04 14:00"]),
    ("星期三 16:00 家长会", "家长会", False, ["2026-12-02 16:00"]),
    ("本周日 18:00 聚餐", "聚餐", False, ["2026-11-29 18:00"]),
    ("下周一 9点 开会", "开会", False, ["2026-11-30 09:00"]),
    ("12-01 9:00 交材料", "交材料", False, ["2026-12-01 09:00"]),
    ("2027-01-05 08:00 续签", "续签", False, ["2027-01-05 08:00"]),
    ("12月1日 9点 交材料", "交材料", False, ["2026-12-01 09:00"]),
    ("2026年12月31日 23:00 跨年", "跨年", False, ["2026-12-31 23:00"]),
    ("1号 交水费", "交水费", False, ["2026-12-01 09:00"]),
    ("3天后 9:00 复查", "复查", False, ["2026-12-02 09:00"]),
    ("两天后 取报告", "取报告", False, ["2026-12-01 09:00"]),
    # one-offs at a time, or after a while
    ("下午3点 取快递", "取快递", False, ["2026-11-29 15:00"]),
    ("22:30 睡觉", "睡觉", False, ["2026-11-29 22:30"]),
    ("早上7点 赶飞机", "赶飞机", False, ["2026-11-30 07:00"]),
    ("9:00 开会", "开会", False, ["2026-11-30 09:00"]),
    ("30分钟后 关火", "关火", False, ["2026-11-29 10:30"]),
    ("10分钟以后 看锅", "看锅", False, ["2026-11-29 10:10"]),
    ("2小时后 收衣服", "收衣服", False, ["2026-11-29 12:00"]),
    ("两个小时后 喝水", "喝水", False, ["2026-11-29 12:00"]),
    ("半小时后 出门", "出门", False, ["2026-11-29 10:30"]),
    ("半个钟头后 下楼", "下楼", False, ["2026-11-29 10:30"]),
    ("1个半小时后 吃药", "吃药", False, ["2026-11-29 11:30"]),
    ("2h后 开会", "开会", False, ["2026-11-29 12:00"]),
    # importance, 我 and punctuation
    ("每天 22:00 重要 吃药", "吃药", True, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("重要!每天 8:00 吃药", "吃药", True, ["2026-11-30 08:00", "2026-12-01 08:00", "2026-12-02 08:00"]),
    ("【重要】每天22:00吃药", "吃药", True, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
    ("明天 9:00 交材料 (重要)", "交材料", True, ["2026-11-30 09:00"]),
    ("明天 9:00 重要会议", "重要会议", False, ["2026-11-30 09:00"]),
    ("我明天9点交材料", "交材料", False, ["2026-11-30 09:00"]),
    ("明天 9:00 提醒我 交材料", "交材料", False, ["2026-11-30 09:00"]),
    ("每天,22:00,吃药  和  量血压", "吃药 和 量血压", False, ["2026-11-29 22:00", "2026-11-30 22:00", "2026-12-01 22:00"]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "title", "important", "expected"), ROWS)
def test_a_phrase_becomes_a_reminder_that_fires_when_it_says(
    text: str, title: str, important: bool, expected: list[str]
) -> None:
    reminder = parse_custom_reminder(normalise(text), now_local=NOW)
    assert (reminder.title, reminder.important) == (title, important)
    assert fires(reminder) == expected


def test_the_table_covers_the_phrase_families() -> None:
    assert len(ROWS) >= 45


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", NEEDS_WHEN),
        ("吃药", NEEDS_WHEN),
        ("吃药 每天 22:00", NEEDS_WHEN),
        ("重要", NEEDS_WHEN),
        ("每天 22:00", NEEDS_TITLE),
        ("明天 9:00 提醒我", NEEDS_TITLE),
        ("每天 22:00 重要", NEEDS_TITLE),
        ("今天 8:00 开会", IN_THE_PAST),
        ("今天 10:00 开会", IN_THE_PAST),
        ("今天 交材料", IN_THE_PAST),
        ("2020-01-01 9:00 开会", IN_THE_PAST),
        ("周日 9:00 开会", IN_THE_PAST),
        ("每周 9:00 开会", WEEKDAY_MISSING),
        ("每星期 开会", WEEKDAY_MISSING),
        ("每隔两天 吃药", UNKNOWN_REPEAT),
        ("每小时 喝水", UNKNOWN_REPEAT),
        ("每月 交房租", UNKNOWN_REPEAT),
        ("每月32号 交房租", INVALID_MONTH_DAY),
        ("每月0号 交房租", INVALID_MONTH_DAY),
        ("每年2月30日 纪念日", texts.invalid_date("2月30日")),
        ("每年13月1日 纪念日", texts.invalid_date("13月1日")),
        ("13-45 9:00 开会", texts.invalid_date("13月45日")),
        ("每天 25:00 吃药", texts.invalid_time("25:00")),
        ("每早 13:00 吃药", texts.invalid_time("早上13:00")),
        ("0分钟后 出门", LATER_OUT_OF_RANGE),
        ("半分钟后 出门", LATER_OUT_OF_RANGE),
        ("1000天后 出门", LATER_OUT_OF_RANGE),
        ("0天后 出门", LATER_OUT_OF_RANGE),
        ("9999小时后 出门", LATER_OUT_OF_RANGE),
        ("明天 9:00 " + "很" * (MAX_TITLE + 1), TITLE_TOO_LONG),
    ],
)
def test_a_phrase_it_cannot_read_gets_a_helpful_answer(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_custom_reminder(text, now_local=NOW)
    assert caught.value.message == message


def test_a_title_of_exactly_the_maximum_length_is_kept() -> None:
    reminder = parse_custom_reminder("明天 9:00 " + "很" * MAX_TITLE, now_local=NOW)
    assert len(reminder.title) == MAX_TITLE


def test_after_a_while_counts_from_now_to_the_second() -> None:
    now = local(2026, 11, 29, 23, 50, 30, 123456)
    reminder = parse_custom_reminder("30分钟后 关火", now_local=now)
    assert reminder.schedule.once_at == local(2026, 11, 30, 0, 20, 30)


def test_a_bare_time_that_has_passed_today_means_tomorrow() -> None:
    now = local(2026, 12, 31, 23, 0)
    reminder = parse_custom_reminder("8:00 跑步", now_local=now)
    assert reminder.schedule.once_at == local(2027, 1, 1, 8, 0)


def test_a_reminder_needs_the_users_naive_wall_clock_time() -> None:
    with pytest.raises(ValueError, match="naive"):
        parse_custom_reminder("每天 22:00 吃药", now_local=NOW.replace(tzinfo=SHANGHAI))


PIECES = [
    " ", "\u3000", ",", "、", "-", "~", ":", "每", "每天", "每晚", "每早", "每周", "每个",
    "星期", "礼拜", "一", "三", "五", "日", "天", "至", "到", "和", "工作日", "周末", "月",
    "每月", "号", "日", "最后一天", "底", "初", "每年", "年", "今", "明", "后天", "今晚",
    "明早", "下周一", "周五", "12-01", "2-29", "13-45", "2027-01-05", "31号", "1号",
    "分钟", "小时", "个", "半", "h", "min", "后", "以后", "天后", "0", "1", "7", "15",
    "32", "99999", "十五", "两", "22:00", "24:00", "9点半", "下午3点", "晚上", "早上",
    "凌晨", "重要", "【重要】", "(", ")", "我", "提醒我", "吃药", "😀", "\x00", "\ud800",
]  # fmt: skip


def outcome(text: str, now: dt.datetime) -> AddReminder | str:
    """The reminder, or the error message; fails the test on any other exception."""
    try:
        return parse_custom_reminder(text, now_local=now)
    except ParseError as error:
        message = error.message
    assert isinstance(message, str)
    return message


reminder_texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=10).map("".join)
moments = st.datetimes(min_value=local(2000, 1, 1), max_value=local(2100, 12, 31))


@settings(max_examples=400, deadline=None)
@given(text=reminder_texts | st.text(), now=moments)
def test_any_text_gives_a_reminder_or_a_parse_error(text: str, now: dt.datetime) -> None:
    reminder = outcome(normalise(text), now)
    if isinstance(reminder, str):
        assert reminder.strip()
        return
    assert 0 < len(reminder.title) <= MAX_TITLE
    if reminder.schedule.once_at is not None:
        assert reminder.schedule.once_at > now
    after = now.replace(tzinfo=SHANGHAI)
    at = next_after(reminder.schedule, after, SHANGHAI)
    assert at is None or at > after
